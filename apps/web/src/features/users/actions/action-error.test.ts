import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { ConflictError, HttpError } from '../../../lib/http/http-client.ts';
import { actionErrorText } from './action-error.ts';

const refusal = (status: number, code?: string, detail?: string) => {
  const body = { errors: [{ status: String(status), code: code ?? 'x', title: 'x', ...(detail ? { detail } : {}) }] };
  return status === 409 ? new ConflictError(status, '/x', body) : new HttpError(status, '/x', body);
};
const text = (error: unknown) => actionErrorText(error, i18n.t);

describe('a refused action in words', () => {
  it.each([
    [403, undefined, 'You are not allowed to do this: only a System Admin of the organisation can act on its users.'],
    [404, undefined, 'No longer in the organisation.'],
    [412, undefined, 'This user was changed meanwhile. They are now shown as they are: check, then try again.'],
    [
      428,
      undefined,
      'The change was refused because the version of the user was not sent. Please reload the page and try again.',
    ],
    [429, 'recently_invited', 'Invited less than a minute ago: please wait a minute, then try again.'],
    [409, 'last_system_admin', 'The organisation must keep at least one active System Admin.'],
    [409, 'self', 'You cannot disable, remove or demote yourself.'],
    [500, undefined, 'The action failed. Please try again.'],
  ])('%i %s', (status, code, expected) => {
    expect(text(refusal(status, code))).toBe(expected);
  });

  it("gives a 409's own words when its reason is not one the page knows", () => {
    expect(text(refusal(409, 'id_mismatch', 'data.id must be the id of the address.'))).toBe(
      'data.id must be the id of the address.',
    );
  });

  it("gives a 400's own words: a request the server does not offer yet", () => {
    expect(text(refusal(400, 'not_supported', 'Invitations cannot be sent to every matching user yet.'))).toBe(
      'Invitations cannot be sent to every matching user yet.',
    );
  });

  it('says the action failed when no answer came', () => {
    expect(text(new TypeError('Failed to fetch'))).toBe('The action failed. Please try again.');
  });
});
