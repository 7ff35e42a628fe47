import { alpha, lighten, type SxProps, type Theme } from '@mui/material/styles';
import { lineClamp } from '../../../config/design-tokens.ts';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';

/**
 * Below the lg breakpoint the chosen columns but Status move under the user's e-mail: from md to lg
 * five columns do not fit, and the last ones would be cut off at the table's edge.
 */
const WIDE_ONLY = { display: { xs: 'none', lg: 'table-cell' } } as const;
const NARROW_ONLY = { display: { xs: 'block', lg: 'none' } } as const;

/**
 * Names and addresses come from directories and can be anything: a 300-character word would make a
 * row hundreds of pixels tall. Each wraps anywhere, stops at two lines with an ellipsis, and shows
 * in full on hover (title; the row's accessible names carry the full text).
 */
const AT_MOST_TWO_LINES = { ...lineClamp(2), overflowWrap: 'anywhere', textOverflow: 'ellipsis' } as const;

/**
 * The parts of the table's cells, styled once by the table (`tableStyles`) rather than by an `sx`
 * on each element of each of its 25 to 100 rows: every `sx` and MUI text element is resolved
 * again at each render of each row, which lengthened the first render's longest task.
 */
export const cellClasses = {
  row: 'UsersTable-row',
  selected: 'UsersTable-selected',
  cell: 'UsersTable-cell',
  checkboxCell: 'UsersTable-checkboxCell',
  wideOnly: 'UsersTable-wideOnly',
  narrowOnly: 'UsersTable-narrowOnly',
  userCell: 'UsersTable-userCell',
  user: 'UsersTable-user',
  avatar: 'UsersTable-avatar',
  userText: 'UsersTable-userText',
  name: 'UsersTable-name',
  nameLink: 'UsersTable-nameLink',
  secondLine: 'UsersTable-secondLine',
  clamped: 'UsersTable-clamped',
  rowAction: 'UsersTable-rowAction',
  notSelectable: 'UsersTable-notSelectable',
  reasonAnchor: 'UsersTable-reasonAnchor',
  hidden: 'UsersTable-hidden',
  time: 'UsersTable-time',
} as const;

const at = (name: string) => `& .${name}`;

// The body's rows and cells are plain elements drawn as MUI's TableRow and TableCell draw them in
// the page's light theme: those components' own styles were a third of rendering a new page of rows.
const rowStyles = {
  [at(cellClasses.row)]: {
    color: 'inherit',
    verticalAlign: 'middle',
    outline: 0,
    '&:hover': { bgcolor: 'action.hover' },
    [`&.${cellClasses.selected}`]: {
      bgcolor: (theme: Theme) => alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity),
      '&:hover': {
        bgcolor: (theme: Theme) =>
          alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity + theme.palette.action.hoverOpacity),
      },
    },
  },
  [`${at(cellClasses.cell)}, ${at(cellClasses.checkboxCell)}`]: {
    typography: 'body2',
    color: 'text.primary',
    verticalAlign: 'inherit',
    textAlign: 'left',
    borderBottom: (theme: Theme) => `1px solid ${lighten(alpha(theme.palette.divider, 1), 0.88)}`,
  },
  [at(cellClasses.cell)]: { py: 2 },
  [at(cellClasses.checkboxCell)]: { width: 48, p: '0 0 0 4px' },
};

const cellStyles = {
  ...rowStyles,
  // The head's cells and the body's, but the checkboxes', narrower on a phone.
  [`& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox), ${at(cellClasses.cell)}`]: { px: { xs: 1, md: 2 } },
  [at(cellClasses.wideOnly)]: WIDE_ONLY,
  [at(cellClasses.narrowOnly)]: NARROW_ONLY,
  [at(cellClasses.userCell)]: { minWidth: { xs: 0, md: 240 } },
  [at(cellClasses.user)]: { display: 'flex', alignItems: 'center', gap: { xs: 1, md: 1.5 }, minWidth: 0 },
  // The initials avatar, in colours that pass WCAG AA (dark blue on light blue, 8.9:1), unlike
  // MUI's default white on grey.
  [at(cellClasses.avatar)]: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    borderRadius: '50%',
    overflow: 'hidden',
    userSelect: 'none',
    lineHeight: 1,
    width: { xs: 32, md: 40 },
    height: { xs: 32, md: 40 },
    fontSize: { xs: '0.8125rem', md: '0.9375rem' },
    fontWeight: 600,
    bgcolor: '#dbe7f7',
    color: '#0b3d91',
  },
  [at(cellClasses.userText)]: { minWidth: 0, typography: 'body2', '& > p': { m: 0 } },
  [at(cellClasses.name)]: { fontWeight: 600 },
  // The name opens the user's side sheet: a link in the text's own colour, underlined on hover.
  [at(cellClasses.nameLink)]: {
    color: 'inherit',
    textDecoration: 'none',
    '&:hover': { textDecoration: 'underline' },
    '&:focus-visible': { outline: '2px solid #1565c0', outlineOffset: 2, borderRadius: 2 },
  },
  [at(cellClasses.secondLine)]: { color: 'text.secondary' },
  [at(cellClasses.clamped)]: AT_MOST_TWO_LINES,
  [at(cellClasses.rowAction)]: { textAlign: 'start' },
  // Drawn as MUI draws a disabled checkbox, but it keeps its focus ring.
  [at(cellClasses.notSelectable)]: {
    color: 'action.disabled',
    cursor: 'not-allowed',
    '&:hover': { backgroundColor: 'transparent' },
    '& input': { cursor: 'not-allowed' },
  },
  [at(cellClasses.reasonAnchor)]: { display: 'inline-flex' },
  [at(cellClasses.hidden)]: visuallyHidden as object,
  // "3 days ago" and a date read as one piece.
  [at(cellClasses.time)]: { whiteSpace: 'nowrap' },
};

/**
 * The table's styles for a number of optional columns. From lg it is at least wide enough for them
 * (SPEC.md's three: 640 px), and scrolls sideways in its container rather than squeezing them; each
 * column added is a short word or time.
 */
export function tableStyles(optionalColumns: number): SxProps<Theme> {
  return { ...cellStyles, minWidth: { xs: 0, lg: 640 + Math.max(0, optionalColumns - 3) * 120 } };
}
