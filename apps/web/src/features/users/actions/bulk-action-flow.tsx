import Dialog from '@mui/material/Dialog';
import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunBulkAction } from '../api/run-bulk-action.ts';
import type { BulkAction } from '../components/actions-menu.tsx';
import { actionErrorText } from './action-error.ts';
import { bulkQuestion, ConfirmContent, UserTypeChoice } from './bulk-confirm.tsx';
import { type BulkContext, type BulkPlan, planBulkAction } from './bulk-plan.ts';
import { BulkResults, skippedByReason } from './bulk-results.tsx';
import { JobProgress } from './job-progress.tsx';

export interface BulkActionFlowProps {
  orgId: string;
  menuAction: BulkAction;
  /** The selection and the list as they were when the action was chosen. */
  context: BulkContext;
  /** The action changed users: the selection has served. */
  onDone: () => void;
  onClose: () => void;
}

/** The question: what will happen to how many users, and for a change of user type, which type. */
function BulkQuestion({
  plan,
  ids,
  run,
  onConfirm,
  onClose,
  isSystemAdmin,
  onUserType,
}: {
  plan: BulkPlan;
  ids: { titleId: string; descriptionId: string };
  run: ReturnType<typeof useRunBulkAction>;
  onConfirm: () => void;
  onClose: () => void;
  isSystemAdmin: boolean;
  onUserType: (isSystemAdmin: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmContent
      {...ids}
      question={bulkQuestion(plan, t)}
      detail={`${t(`userActions.detail.${plan.key}`)} ${t('userActions.detail.skipped')}`}
      confirmLabel={t(`userActions.confirm.${plan.key}`)}
      destructive={plan.key === 'remove'}
      pending={run.isPending}
      blockedBy={plan.blocked ? t('userActions.excluded') : undefined}
      error={run.isError ? actionErrorText(run.error, t) : undefined}
      onConfirm={onConfirm}
      onCancel={onClose}
    >
      {plan.key === 'setUserType' && <UserTypeChoice value={isSystemAdmin} onChange={onUserType} />}
    </ConfirmContent>
  );
}

/**
 * A bulk action from question to result, in one dialog: the question, then either the results of a
 * call by ids or a job's progress and its result. While a call or a job runs the dialog stays: only
 * Cancel stops a job.
 */
export function BulkActionFlow({ orgId, menuAction, context, onDone, onClose }: BulkActionFlowProps) {
  const { t } = useTranslation();
  const ids = { titleId: useId(), descriptionId: useId() };
  const plan = useMemo(() => planBulkAction(menuAction, context), [menuAction, context]);
  const [isSystemAdmin, setIsSystemAdmin] = useState(true);
  const run = useRunBulkAction(orgId);
  const outcome = run.data;
  const title = t(`users.actions.${menuAction}`);
  const [jobEnded, setJobEnded] = useState(false);
  const running = run.isPending || (outcome?.kind === 'job' && !jobEnded);
  const jobFinished = useCallback(() => {
    setJobEnded(true);
    onDone();
  }, [onDone]);
  const confirm = () =>
    run.mutate(
      { action: plan.action, target: plan.target, ...(plan.key === 'setUserType' ? { isSystemAdmin } : {}) },
      { onSuccess: (answer) => answer.kind === 'results' && onDone() },
    );
  const shown = { titleId: ids.titleId, title, actionKey: plan.key, onClose };

  return (
    <Dialog
      open
      onClose={running ? undefined : onClose}
      aria-labelledby={ids.titleId}
      aria-describedby={outcome ? undefined : ids.descriptionId}
      // The Actions button takes focus back itself: the menu item that opened this is gone.
      disableRestoreFocus
    >
      {outcome?.kind === 'results' ? (
        <BulkResults {...shown} done={outcome.done} skipped={skippedByReason(outcome.results)} />
      ) : outcome?.kind === 'job' ? (
        <JobProgress {...shown} orgId={orgId} jobId={outcome.jobId} onFinished={jobFinished} />
      ) : (
        <BulkQuestion
          plan={plan}
          ids={ids}
          run={run}
          onConfirm={confirm}
          onClose={onClose}
          isSystemAdmin={isSystemAdmin}
          onUserType={setIsSystemAdmin}
        />
      )}
    </Dialog>
  );
}
