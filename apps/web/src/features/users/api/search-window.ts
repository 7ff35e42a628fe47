import { type ErrorDocument, PAGE_BEYOND_SEARCH_WINDOW, SEARCH_WINDOW } from '@users-admin/contract';
import { HttpError } from '../../../lib/http/http-client.ts';

/**
 * The last page a search can show when it matches more users than the server pages through
 * (SEARCH_WINDOW): page 400 at 25 rows a page.
 */
export const lastPageInWindow = (pageSize: number) => Math.ceil(SEARCH_WINDOW / pageSize);

/** The list call was refused because its page starts beyond its search's window (an old or edited link). */
export function isPageBeyondWindow(error: unknown): boolean {
  if (!(error instanceof HttpError) || error.status !== 400) return false;
  const errors = (error.body as Partial<ErrorDocument> | null)?.errors;
  return Array.isArray(errors) && errors.some((item) => item?.code === PAGE_BEYOND_SEARCH_WINDOW);
}
