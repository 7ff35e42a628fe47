import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export const PAGE_TITLE_ID = 'users-page-title';

/** Back to the launchpad, the breadcrumbs (shown from the md breakpoint up) and the title. */
export function PageHeader({ homeUrl, launchpadUrl }: { homeUrl: string; launchpadUrl: string }) {
  const { t } = useTranslation();
  return (
    <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 3 }}>
      <IconButton href={launchpadUrl} aria-label={t('users.back')} sx={{ ml: -1 }}>
        <ArrowBackIcon />
      </IconButton>
      <Box sx={{ minWidth: 0 }}>
        <Breadcrumbs aria-label={t('users.breadcrumbs.label')} sx={{ display: { xs: 'none', md: 'block' } }}>
          <Link href={homeUrl} underline="hover" color="inherit">
            {t('users.breadcrumbs.home')}
          </Link>
          <Typography aria-current="page" sx={{ color: 'text.primary' }}>
            {t('users.breadcrumbs.current')}
          </Typography>
        </Breadcrumbs>
        <Typography id={PAGE_TITLE_ID} variant="h1">
          {t('users.title')}
        </Typography>
      </Box>
    </Box>
  );
}
