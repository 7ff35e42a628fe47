import FilterListIcon from '@mui/icons-material/FilterList';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import { memo, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import type { UsersFilters } from '../model/users-url-query.ts';

const loadFiltersPopover = retryingImport(() => import('./filters-popover.tsx'));
const FiltersPopover = lazyPart(() => loadFiltersPopover().then((module) => module.FiltersPopover));

interface FilterButtonProps {
  /** The list query, whose filters the popover shows and changes. */
  filters: UsersFilters;
  activeCount: number;
  onChange: (filters: UsersFilters) => void;
}

/** The Filter button with its active-filter count; the popover's code loads on first use. */
export const FilterButton = memo(function FilterButton({ filters, activeCount, onChange }: FilterButtonProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [loaded, setLoaded] = useState(false);
  const popoverId = useId();

  return (
    <>
      <Badge badgeContent={activeCount} color="primary" overlap="rectangular">
        <Button
          variant="outlined"
          startIcon={<FilterListIcon />}
          aria-label={activeCount > 0 ? t('users.filters.buttonLabel', { count: activeCount }) : undefined}
          aria-haspopup="dialog"
          aria-expanded={anchor !== null}
          aria-controls={anchor ? popoverId : undefined}
          onPointerEnter={() => void loadFiltersPopover()}
          onFocus={() => void loadFiltersPopover()}
          onClick={(event) => {
            setLoaded(true);
            setAnchor(event.currentTarget);
          }}
        >
          {t('users.filters.button')}
        </Button>
      </Badge>
      {loaded && (
        <Suspense fallback={null}>
          <FiltersPopover
            id={popoverId}
            anchor={anchor}
            filters={filters}
            onChange={onChange}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
});
