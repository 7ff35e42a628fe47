import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumbs } from '../../../components/breadcrumbs/breadcrumbs.tsx';

export const PAGE_TITLE_ID = 'users-page-title';

/** Back to the launchpad, the breadcrumbs (shown from the md breakpoint up) and the title. */
export const PageHeader = memo(function PageHeader({
  homeUrl,
  launchpadUrl,
}: {
  homeUrl: string;
  launchpadUrl: string;
}) {
  const { t } = useTranslation();
  return (
    <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 3 }}>
      <IconButton href={launchpadUrl} aria-label={t('users.back')} sx={{ ml: -1 }}>
        {/* "Back" points to the leading edge: to the right in a right-to-left language. */}
        <ArrowBackIcon sx={{ '[dir="rtl"] &': { transform: 'scaleX(-1)' } }} />
      </IconButton>
      <Box sx={{ minWidth: 0 }}>
        {/* SPEC.md §2: Home, then the current page, so the last item is shown. */}
        <Breadcrumbs
          aria-label={t('users.breadcrumbs.label')}
          items={[{ label: t('users.breadcrumbs.home'), href: homeUrl }, { label: t('users.breadcrumbs.current') }]}
          showLast
          truncate
        />
        <Typography id={PAGE_TITLE_ID} variant="h1">
          {t('users.title')}
        </Typography>
      </Box>
    </Box>
  );
});
