import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';
import { useCancelJob } from '../api/cancel-job.ts';
import { isFinished, type Job, useJob } from '../api/get-job.ts';
import { usersChanged } from '../api/users-changed.ts';
import type { ActionKey } from './action-texts.ts';
import { BulkResults } from './bulk-results.tsx';

interface JobProgressProps {
  orgId: string;
  jobId: string;
  titleId: string;
  title: string;
  actionKey: ActionKey;
  onFinished: () => void;
  onClose: () => void;
}

/** A job over every matching user: its progress with Cancel while it runs, then its result. */
export function JobProgress({ orgId, jobId, titleId, title, actionKey, onFinished, onClose }: JobProgressProps) {
  const queryClient = useQueryClient();
  const job = useJob(orgId, jobId);
  const finished = job.data !== undefined && isFinished(job.data.status);
  // Once: the lists are read again and the page told, whatever renders follow.
  const reported = useRef(false);
  useEffect(() => {
    if (!finished || reported.current) return;
    reported.current = true;
    void usersChanged(queryClient, orgId);
    onFinished();
  }, [finished, queryClient, orgId, onFinished]);

  if (finished && job.data) {
    const { status, done, skipped } = job.data;
    return (
      <BulkResults
        titleId={titleId}
        title={title}
        actionKey={actionKey}
        done={done}
        skipped={skipped}
        ending={status === 'cancelled' || status === 'failed' ? status : undefined}
        onClose={onClose}
      />
    );
  }
  return (
    <>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Running orgId={orgId} jobId={jobId} job={job.data} actionKey={actionKey} lost={job.isError} />
    </>
  );
}

function Running({
  orgId,
  jobId,
  job,
  actionKey,
  lost,
}: {
  orgId: string;
  jobId: string;
  job: Job | undefined;
  actionKey: ActionKey;
  lost: boolean;
}) {
  const { t } = useTranslation();
  const cancel = useCancelJob(orgId, jobId);
  const counted = job !== undefined && job.status === 'running';
  const text = counted
    ? t(`userActions.progress.${actionKey}`, { done: job.processed, count: job.total })
    : t('userActions.progress.queued');
  const percent = counted && job.total > 0 ? Math.min(100, Math.round((job.processed / job.total) * 100)) : 0;
  const cancelling = cancel.isPending || cancel.isSuccess;
  return (
    <>
      <DialogContent>
        <Typography>{text}</Typography>
        <LinearProgress
          variant={counted ? 'determinate' : 'indeterminate'}
          value={percent}
          aria-label={t('userActions.progress.label')}
          sx={{ mt: 2 }}
        />
        {/* Said once as it starts: the count that changes every second is for the eyes. */}
        <Box role="status" sx={visuallyHidden}>
          {t('userActions.progress.queued')}
        </Box>
        {lost && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('userActions.progress.lost')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => cancel.mutate()} disabled={cancelling} autoFocus>
          {cancelling ? t('userActions.progress.cancelling') : t('userActions.cancel')}
        </Button>
      </DialogActions>
    </>
  );
}
