import { useTheme } from '@mui/material/styles';
import TabScrollButton, { type TabScrollButtonProps } from '@mui/material/TabScrollButton';

/**
 * MUI's tab scroll button with a name (SPEC.md §8: "Scroll tabs left", "Scroll tabs right", in the
 * page's language): MUI draws it as an unnamed div. It stays out of the Tab order (the arrow keys
 * move between tabs and scroll them), but a pointer or screen-reader user gets its name.
 * `direction` is the side it scrolls towards, already mirrored by MUI in right-to-left layouts.
 * The theme makes it every Tabs' scroll button (theme.ts).
 */
export function LabelledTabScrollButton(props: TabScrollButtonProps) {
  const { texts } = useTheme();
  const label = props.direction === 'left' ? texts.scrollTabsLeft : texts.scrollTabsRight;
  return <TabScrollButton role="button" aria-label={label} {...props} />;
}
