import { SKIP_REASONS, type SkipReason } from '@users-admin/contract';
import type { TFunction } from 'i18next';
import { apiRefusal } from '../../../lib/http/json-request.ts';
import './action-texts.ts';

const isSkipReason = (code: string | undefined): code is SkipReason =>
  (SKIP_REASONS as readonly string[]).includes(code ?? '');

/**
 * A refused or failed action in words: a rule's reason in the page's language, else the server's
 * own words (a 409's detail), else a plain failure. Never throws: an error is a message, not a crash.
 */
export function actionErrorText(error: unknown, t: TFunction): string {
  const { status, code, detail } = apiRefusal(error);
  if (status === 403) return t('userActions.errors.forbidden');
  if (status === 404) return t('userActions.reason.not_found');
  if (status === 412) return t('userActions.errors.stale');
  if (status === 428) return t('userActions.errors.versionMissing');
  if (status === 429) return t('userActions.reason.recently_invited');
  if (status === 409 && isSkipReason(code)) return t(`userActions.reason.${code}`);
  // A refusal the page has no words of its own for (a rule, a request not offered yet): the server's.
  if ((status === 409 || status === 400) && detail) return detail;
  return t('userActions.errors.failed');
}

/** A user changed since they were read: the page reads them again. */
export const isStale = (error: unknown) => apiRefusal(error).status === 412;
