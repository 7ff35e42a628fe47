// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { type HttpClient, HttpError } from '../../../lib/http/http-client.ts';
import { saveUserColumns } from './save-user-columns.ts';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/vnd.api+json' } });
const clientAnswering = (response: Response) => {
  const send = vi.fn(async () => response);
  return { client: { get: vi.fn(), send } as unknown as HttpClient, send };
};

describe('saving the chosen columns', () => {
  it('PATCHes them as JSON:API, in the table’s order, and answers them as the server kept them', async () => {
    const kept = { data: { type: 'preferences', id: 'a', attributes: { users_columns: ['status', 'created'] } } };
    const { client, send } = clientAnswering(answer(200, kept));
    await expect(saveUserColumns('o1', ['created', 'status'], { client })).resolves.toEqual(['status', 'created']);
    expect(send).toHaveBeenCalledWith('/apis/accounts/api/v3/orgs/o1/preferences', {
      method: 'PATCH',
      credentials: 'include',
      headers: { Accept: 'application/vnd.api+json', 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'preferences', attributes: { users_columns: ['status', 'created'] } } }),
    });
  });

  it('fails with the server’s status when it refuses them', async () => {
    const { client } = clientAnswering(answer(400, { errors: [{ status: '400' }] }));
    const error = await saveUserColumns('o1', [], { client }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400 });
  });
});
