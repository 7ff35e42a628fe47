import {
  EXPORT_COUNT_HEADER,
  type ExportRequest,
  exportPath,
  toUserListParams,
  type UserListQuery,
  userListDocumentSchema,
  usersPath,
} from '@users-admin/contract';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS, insertUsers } from '../src/db/seed.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

const ACME = DEMO_ORGS.acme.id;

const VALUES: ExportRequest['values'] = {
  platform: 'Plateforme',
  third_party: 'Tiers',
  active: 'Actif',
  inactive: 'Inactif',
  pending: 'En attente',
  disabled: 'Désactivé',
  system_admin: 'Administrateur',
  user: 'Utilisateur',
  never: 'Jamais',
};
const COLUMNS: ExportRequest['columns'] = [
  { key: 'name', header: 'Nom' },
  { key: 'email', header: 'E-mail' },
  { key: 'status', header: 'Statut' },
  { key: 'last_sign_in', header: 'Dernière connexion' },
];

describe('POST /apis/accounts/api/v3/orgs/{org_id}/users/export', () => {
  let server: TestServer;
  let admin: CookieJar;

  const exportCsv = (jar: CookieJar | undefined, query: Partial<UserListQuery>, body: unknown, orgId = ACME) => {
    const params = toUserListParams(query).toString();
    return fetch(`${server.baseUrl}${exportPath(orgId)}${params ? `?${params}` : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(jar ? { cookie: jar.header() } : {}) },
      body: JSON.stringify(body),
    });
  };
  /** The names of every page of the list, in its order, as a spreadsheet-safe CSV holds them. */
  const listedNames = async (query: Partial<UserListQuery>) => {
    const names: string[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const params = toUserListParams({ ...query, pageSize: 100, pageNumber });
      const response = await fetch(`${server.baseUrl}${usersPath(ACME)}?${params}`, {
        headers: { cookie: admin.header() },
      });
      const document = userListDocumentSchema.parse(await response.json());
      names.push(...document.data.map((user) => user.attributes.name.replace(/^[=+\-@\t\r]/, "'$&")));
      if (!document.links.next) return names;
    }
  };
  const rowsOf = async (response: Response) => {
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    // UTF-8's byte order mark, by which Excel reads the file as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return parse(Buffer.from(bytes), { bom: true }) as string[][];
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    await insertUsers(server.database.db, [
      userRow(ACME, '=HYPERLINK("http://x")', 'formula@acme.example'),
      userRow(ACME, '+sum', '@at@acme.example'),
    ]);
  });
  afterAll(() => server.close());

  it('exports every user of the view in its order, with the header in the words sent, and says how many first', async () => {
    const query = { status: 'pending', sort: '-name' } as const;
    const response = await exportCsv(admin, query, { columns: COLUMNS, values: VALUES });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const date = new Date().toISOString().slice(0, 10);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="users-acme-${date}.csv"`);
    const [header, ...rows] = await rowsOf(response);
    expect(header).toEqual(['Nom', 'E-mail', 'Statut', 'Dernière connexion']);
    const names = await listedNames(query);
    expect(Number(response.headers.get(EXPORT_COUNT_HEADER))).toBe(names.length);
    expect(rows.map((row) => row[0])).toEqual(names);
    // Pending users were invited and never signed in.
    expect(new Set(rows.map((row) => `${row[2]} ${row[3]}`))).toEqual(new Set(['En attente Jamais']));
  });

  it('exports a search across every page, and every user without one', async () => {
    const search = { search: 'a', sort: 'name' } as const;
    const [, ...rows] = await rowsOf(await exportCsv(admin, search, { columns: COLUMNS, values: VALUES }));
    expect(rows.map((row) => row[0])).toEqual(await listedNames(search));
    const all = await exportCsv(admin, {}, { columns: [{ key: 'email', header: 'E-mail' }], values: VALUES });
    const [, ...everyone] = await rowsOf(all);
    expect(everyone.map((row) => row[0])).toEqual(
      (
        await server.database.db.selectFrom('users').select('email').where('org_id', '=', ACME).orderBy('id').execute()
      ).map((row) => (row.email.startsWith('@') ? `'${row.email}` : row.email)),
    );
  });

  it('exports a selection: the ids ticked, or the view but the ids unticked', async () => {
    const names = await listedNames({ sort: 'name' });
    const ids = (
      await server.database.db.selectFrom('users').select(['id', 'name']).where('org_id', '=', ACME).execute()
    ).filter((row) => names.slice(0, 3).includes(row.name.replace(/^[=+\-@\t\r]/, "'$&")));
    const some = await exportCsv(
      admin,
      { sort: 'name' },
      { columns: COLUMNS, values: VALUES, selection: { mode: 'some', ids: ids.map((row) => row.id) } },
    );
    expect(some.headers.get(EXPORT_COUNT_HEADER)).toBe(String(ids.length));
    expect((await rowsOf(some)).slice(1).map((row) => row[0])).toEqual(names.slice(0, ids.length));
    const excluded = ids.slice(0, 1).map((row) => row.id);
    const allBut = await exportCsv(
      admin,
      { sort: 'name' },
      { columns: COLUMNS, values: VALUES, selection: { mode: 'all', excluded } },
    );
    const rows = (await rowsOf(allBut)).slice(1);
    expect(Number(allBut.headers.get(EXPORT_COUNT_HEADER))).toBe(rows.length);
    expect(rows.length).toBe(names.length - 1);
  });

  it('makes a cell a spreadsheet would run as a formula text', async () => {
    const [, ...rows] = await rowsOf(
      await exportCsv(admin, { search: 'acme.example', sort: 'name' }, { columns: COLUMNS, values: VALUES }),
    );
    const cells = rows.flat();
    expect(cells).toContain(`'=HYPERLINK("http://x")`);
    expect(cells).toContain(`'+sum`);
    expect(cells).toContain(`'@at@acme.example`);
    expect(cells.some((cell) => /^[=+\-@]/.test(cell))).toBe(false);
  });

  it('answers 401 without a session, 403 for a plain user or another organisation, 400 for a bad body', async () => {
    const body = { columns: COLUMNS, values: VALUES };
    expect((await exportCsv(undefined, {}, body)).status).toBe(401);
    const user = (await signIn(server.baseUrl, 'user@acme.example', 'user')).jar;
    expect((await exportCsv(user, {}, body)).status).toBe(403);
    const globex = (await signIn(server.baseUrl, 'admin@globex.example', 'admin')).jar;
    expect((await exportCsv(globex, {}, body)).status).toBe(403);
    const bad = await exportCsv(admin, {}, { columns: [{ key: 'password', header: 'x' }], values: VALUES });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
  });
});
