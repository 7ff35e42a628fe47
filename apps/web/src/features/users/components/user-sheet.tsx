import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { HttpError } from '../../../lib/http/http-client.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import { type UserDetails, useUser } from '../api/get-user.ts';
import { openSupport } from '../utils/open-support.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
import type { RowAction } from './user-row.tsx';
import { UserSheetDetails } from './user-sheet-details.tsx';

// The sheet's actions and the user's activity load apart, when a sheet first shows a user.
const SheetActions = lazyPart(() =>
  retryingImport(() => import('../actions/user-sheet-actions.tsx'))().then((module) => module.UserSheetActions),
);
const SheetActivity = lazyPart(() =>
  retryingImport(() => import('../actions/user-activity.tsx'))().then((module) => module.UserActivity),
);

export interface UserSheetProps {
  orgId: string;
  /** The user whose sheet the address asks for; undefined: the sheet is closed. */
  userId: string | undefined;
  onClose: () => void;
  /** Where a disabled user's Contact support goes. */
  supportUrl?: string | undefined;
}

/** Focus goes back to the user's name in the table, if it is there (after a deep link it may not be). */
function focusName(userId: string) {
  document.querySelector<HTMLElement>(`main a[data-user-id="${CSS.escape(userId)}"]`)?.focus();
}

/**
 * The sheet of the user the address names. Once opened it stays mounted: the last user shown stays
 * in it while it slides away, and focus then goes back to their name.
 */
export function UserSheet({ orgId, userId, onClose, supportUrl }: UserSheetProps) {
  const [shown, setShown] = useState(userId);
  if (userId !== undefined && userId !== shown) setShown(userId);
  const previous = useRef(userId);
  useEffect(() => {
    if (previous.current !== undefined && userId === undefined) focusName(previous.current);
    previous.current = userId;
  }, [userId]);
  if (shown === undefined) return null;
  return (
    <UserSheetDrawer
      orgId={orgId}
      userId={shown}
      open={userId !== undefined}
      onClose={onClose}
      supportUrl={supportUrl}
    />
  );
}

/** What the sheet says when the user could not be shown: a 404 is a user that is not (or no longer) there. */
function SheetError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (error instanceof HttpError && error.status === 404) {
    return <Alert severity="info">{t('users.sheet.notFound')}</Alert>;
  }
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('users.states.retry')}
        </Button>
      }
    >
      {t('users.sheet.error')}
    </Alert>
  );
}

/** The user's details, then their actions and their recent activity (these two load apart). */
function SheetContent({
  orgId,
  user,
  supportUrl,
  onRemoved,
}: {
  orgId: string;
  user: UserDetails;
  supportUrl: string | undefined;
  onRemoved: () => void;
}) {
  // Each press of the status field's invitation link; the actions send one invitation per press.
  const [invitations, setInvitations] = useState(0);
  const onStatusAction = (action: RowAction) => {
    if (action === 'contactSupport') openSupport(supportUrl);
    else setInvitations((count) => count + 1);
  };
  return (
    <>
      <UserSheetDetails user={user} onStatusAction={onStatusAction} />
      <Suspense fallback={null}>
        {/* A new user's sheet starts with nothing asked and nothing said. */}
        <SheetActions key={user.id} orgId={orgId} user={user} invitations={invitations} onRemoved={onRemoved} />
        <SheetActivity orgId={orgId} userId={user.id} />
      </Suspense>
    </>
  );
}

/**
 * A user's side sheet: a modal dialog on the right, named by the user's name, with their
 * details, actions and activity. Escape, the close button and a click outside close it; MUI's focus trap moves focus into it.
 */
function UserSheetDrawer({
  orgId,
  userId,
  open,
  onClose,
  supportUrl,
}: {
  orgId: string;
  userId: string;
  open: boolean;
  onClose: () => void;
  supportUrl: string | undefined;
}) {
  const { t } = useTranslation();
  const user = useUser(orgId, userId);
  const titleId = useId();
  const title = user.data ? revealBidiControls(user.data.name) : t('users.sheet.title');

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // The page puts focus back on the user's name itself: after a link there was no opener.
      disableRestoreFocus
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-modal': true,
          'aria-labelledby': titleId,
          'aria-busy': user.isPending,
          sx: { width: { xs: '100%', md: 460 } },
        },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, px: 3, pt: 2, pb: 1 }}>
        <Typography
          id={titleId}
          variant="h2"
          component="h2"
          sx={{ flex: 1, minWidth: 0, pt: 0.75, overflowWrap: 'anywhere' }}
        >
          {title}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('users.sheet.close')} edge="end">
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ px: 3, pb: 3 }}>
        {user.isPending ? (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
            <CircularProgress aria-label={t('users.sheet.loading')} />
          </Box>
        ) : user.isError ? (
          <SheetError error={user.error} onRetry={() => void user.refetch()} />
        ) : (
          <SheetContent orgId={orgId} user={user.data} supportUrl={supportUrl} onRemoved={onClose} />
        )}
      </Box>
    </Drawer>
  );
}
