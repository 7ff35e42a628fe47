import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';

/**
 * The "Required" or "Optional" beside a form field's label (SPEC.md §5), in the page's language,
 * from the theme. Put it inside the label, so that it is part of the field's accessible name.
 */
export function FormFieldIndicator({ required }: { required: boolean }) {
  const { texts } = useTheme();
  return (
    <Typography component="span" variant="caption" sx={{ color: 'text.secondary', fontWeight: 400, ml: 0.75 }}>
      {required ? texts.required : texts.optional}
    </Typography>
  );
}
