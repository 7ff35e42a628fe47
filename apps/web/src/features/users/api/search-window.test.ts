import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/http/http-client.ts';
import { isPageBeyondWindow, lastPageInWindow } from './search-window.ts';

const refusal = (status: number, code: string) =>
  new HttpError(status, '/users', { errors: [{ status: String(status), code, title: 'x' }] });

describe('the search window (1,000 users)', () => {
  it('ends at page 40 at 25 rows a page, and on the page holding the 1,000th user otherwise', () => {
    expect(lastPageInWindow(25)).toBe(40);
    expect(lastPageInWindow(50)).toBe(20);
    expect(lastPageInWindow(100)).toBe(10);
    expect(lastPageInWindow(30)).toBe(34);
  });

  it('tells a page beyond the window from other refusals', () => {
    expect(isPageBeyondWindow(refusal(400, 'page_beyond_search_window'))).toBe(true);
    expect(isPageBeyondWindow(refusal(400, 'bad_request'))).toBe(false);
    expect(isPageBeyondWindow(refusal(500, 'page_beyond_search_window'))).toBe(false);
    expect(isPageBeyondWindow(new HttpError(400, '/users', null))).toBe(false);
    expect(isPageBeyondWindow(new Error('network'))).toBe(false);
  });
});
