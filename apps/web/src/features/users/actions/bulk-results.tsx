import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { SKIP_REASONS, type SkipReason, type UserActionResult } from '@users-admin/contract';
import { useTranslation } from 'react-i18next';
import type { ActionKey } from './action-texts.ts';

export type SkippedByReason = Partial<Record<SkipReason, number>>;

/** The skipped users of a call by ids, counted by reason. */
export function skippedByReason(results: readonly UserActionResult[]): SkippedByReason {
  const counts: SkippedByReason = {};
  for (const { result, reason } of results) {
    if (result === 'skipped') counts[reason ?? 'not_found'] = (counts[reason ?? 'not_found'] ?? 0) + 1;
  }
  return counts;
}

export interface BulkResultsProps {
  titleId: string;
  title: string;
  actionKey: ActionKey;
  done: number;
  skipped: SkippedByReason;
  /** A job that did not reach every user. */
  ending?: 'cancelled' | 'failed' | undefined;
  onClose: () => void;
}

/** Each label with its count beside it: a count needs no article or agreement there, in any language. */
function Counts({ entries }: { entries: [string, number][] }) {
  const { i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 2, rowGap: 1, m: 0 }}>
      {entries.map(([label, count]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Box component="dt">{label}</Box>
          <Box component="dd" sx={{ m: 0, textAlign: 'end', fontVariantNumeric: 'tabular-nums' }}>
            {number.format(count)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** What an action did: how many users it changed, how many it left as they were, and why. */
export function BulkResults({ titleId, title, actionKey, done, skipped, ending, onClose }: BulkResultsProps) {
  const { t } = useTranslation();
  const reasons = SKIP_REASONS.flatMap((reason): [string, number][] => {
    const count = skipped[reason] ?? 0;
    return count > 0 ? [[t(`userActions.reason.${reason}`), count]] : [];
  });
  const skippedTotal = reasons.reduce((sum, [, count]) => sum + count, 0);
  return (
    <>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Box role="status" sx={{ display: 'grid', gap: 2 }}>
          {ending && <Typography>{t(`userActions.result.${ending}`)}</Typography>}
          <Counts
            entries={[
              [t(`userActions.result.done.${actionKey}`), done],
              [t('userActions.result.skipped'), skippedTotal],
            ]}
          />
          {reasons.length > 0 && (
            <Box component="section" aria-labelledby={`${titleId}-why`}>
              <Typography id={`${titleId}-why`} variant="subtitle2" component="h3" sx={{ mb: 1 }}>
                {t('userActions.result.why')}
              </Typography>
              <Counts entries={reasons} />
            </Box>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        {/* Focus lands here when the result replaces the question or the progress. */}
        <Button variant="contained" onClick={onClose} autoFocus>
          {t('userActions.close')}
        </Button>
      </DialogActions>
    </>
  );
}
