import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../../../components/lazy-tooltip.tsx';

/** A column title with an info icon that shows its explanation on hover and on keyboard focus. */
export function ColumnHeader({ label, info }: { label: string; info: string }) {
  const { t } = useTranslation();
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25, whiteSpace: 'nowrap' }}>
      {label}
      <LazyTooltip title={info} describeChild>
        <IconButton size="small" aria-label={t('users.columns.moreAbout', { column: label })} sx={{ p: 0.5 }}>
          <InfoOutlinedIcon sx={{ fontSize: 16 }} />
        </IconButton>
      </LazyTooltip>
    </Box>
  );
}
