import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import type { TFunction } from 'i18next';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkPlan } from './bulk-plan.ts';

/** "Remove 3 users?", "Change the user type of all 512,345 matching users?" */
export function bulkQuestion(plan: BulkPlan, t: TFunction): string {
  if (plan.scope === 'some') return t(`userActions.question.${plan.key}`, { count: plan.count ?? 0 });
  if (plan.count === undefined) return t(`userActions.questionUncounted.${plan.key}`);
  return t(`userActions.questionAll.${plan.key}`, { count: plan.count });
}

/** System Admin or User, for a change of user type. */
export function UserTypeChoice({ value, onChange }: { value: boolean; onChange: (isSystemAdmin: boolean) => void }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <FormControl sx={{ mt: 2 }}>
      <FormLabel id={labelId}>{t('userActions.newUserType')}</FormLabel>
      <RadioGroup aria-labelledby={labelId} value={String(value)} onChange={(_e, next) => onChange(next === 'true')}>
        <FormControlLabel value="true" control={<Radio />} label={t('users.userType.systemAdmin')} />
        <FormControlLabel value="false" control={<Radio />} label={t('users.userType.user')} />
      </RadioGroup>
    </FormControl>
  );
}

export interface ConfirmContentProps {
  titleId: string;
  descriptionId: string;
  question: string;
  detail: string;
  confirmLabel: string;
  /** Removal is the one that cannot be undone here. */
  destructive: boolean;
  pending: boolean;
  /** Why the action cannot be confirmed, if it cannot. */
  blockedBy?: string | undefined;
  error?: string | undefined;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A question, what it will do, and Cancel or the action: the body of every action's dialog. */
export function ConfirmContent(props: ConfirmContentProps) {
  const { t } = useTranslation();
  const { titleId, descriptionId, question, detail, confirmLabel, destructive, pending, blockedBy, error } = props;
  return (
    <>
      <DialogTitle id={titleId}>{question}</DialogTitle>
      <DialogContent>
        <DialogContentText id={descriptionId}>{detail}</DialogContentText>
        {props.children}
        {blockedBy && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {blockedBy}
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={pending}>
          {t('userActions.cancel')}
        </Button>
        <Button
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          disabled={pending || blockedBy !== undefined}
          onClick={props.onConfirm}
        >
          {pending ? t('userActions.working') : confirmLabel}
        </Button>
      </DialogActions>
    </>
  );
}
