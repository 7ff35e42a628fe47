import Box from '@mui/material/Box';
import MuiBreadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { designTokens } from '../../config/design-tokens.ts';
import { visuallyHidden } from '../../utils/visually-hidden.ts';
import { LazyTooltip } from '../lazy-tooltip.tsx';

const { maxItemsDesktop, showLast: SHOW_LAST, maxLabelLength } = designTokens.breadcrumbs;

export interface BreadcrumbItem {
  label: string;
  /** Where the crumb leads; without it the crumb is plain text. */
  href?: string;
}

export interface BreadcrumbsProps {
  items: readonly BreadcrumbItem[];
  /** The accessible name of the breadcrumb navigation. */
  'aria-label': string;
  /**
   * Shows the last item, the current page (SPEC.md §9: hidden by default, since the page's title
   * usually says the same).
   */
  showLast?: boolean;
  /** Cuts labels over 40 characters, the whole label in a tooltip and for assistive technology. */
  truncate?: boolean;
  /** Visible items on desktop before the middle ones collapse behind "Show path" (3). */
  maxItems?: number;
}

/** The label's first `maxLabelLength` characters (not UTF-16 units) and an ellipsis, or undefined if it fits. */
export function truncatedLabel(label: string, limit: number = maxLabelLength): string | undefined {
  const characters = Array.from(label);
  return characters.length > limit ? `${characters.slice(0, limit).join('').trimEnd()}…` : undefined;
}

function Label({ label, truncate }: { label: string; truncate: boolean }) {
  const short = truncate ? truncatedLabel(label) : undefined;
  if (!short) return label;
  return (
    <>
      <span aria-hidden="true">{short}</span>
      <Box component="span" sx={visuallyHidden}>
        {label}
      </Box>
    </>
  );
}

/**
 * The design system's breadcrumbs (SPEC.md §9): up to 3 visible items on tablet and desktop, none
 * on mobile (below md), the last item hidden unless `showLast`, long labels cut when `truncate`.
 */
export function Breadcrumbs({
  items,
  'aria-label': ariaLabel,
  showLast = SHOW_LAST,
  truncate = false,
  maxItems = maxItemsDesktop,
}: BreadcrumbsProps) {
  const { t } = useTranslation();
  const visible = showLast ? items : items.slice(0, -1);
  if (visible.length === 0) return null;

  const crumbs = visible.map((item, index) => {
    const current = showLast && index === visible.length - 1;
    // A crumb is the path up to it.
    const key = visible
      .slice(0, index + 1)
      .map((step) => step.label)
      .join('\u0000');
    let crumb: ReactElement;
    if (item.href && !current) {
      crumb = (
        <Link key={key} href={item.href} underline="hover" color="inherit">
          <Label label={item.label} truncate={truncate} />
        </Link>
      );
    } else {
      crumb = (
        <Typography
          key={key}
          component="span"
          {...(current ? { 'aria-current': 'page' as const } : {})}
          sx={{ color: current ? 'text.primary' : 'inherit' }}
        >
          <Label label={item.label} truncate={truncate} />
        </Typography>
      );
    }
    // The tooltip's code loads only where a label was cut (components/lazy-tooltip.tsx).
    return truncate && truncatedLabel(item.label) ? (
      <LazyTooltip key={key} title={item.label} describeChild>
        {crumb}
      </LazyTooltip>
    ) : (
      crumb
    );
  });

  return (
    <MuiBreadcrumbs
      aria-label={ariaLabel}
      maxItems={maxItems}
      itemsBeforeCollapse={1}
      itemsAfterCollapse={Math.max(1, maxItems - 1)}
      expandText={t('components.breadcrumbs.showPath')}
      sx={{ display: { xs: 'none', md: 'block' } }}
    >
      {crumbs}
    </MuiBreadcrumbs>
  );
}
