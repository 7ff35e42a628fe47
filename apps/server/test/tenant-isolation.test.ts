import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { setCookieOf } from './support/auth-flow.ts';
import { type CookieJar, chooseOrganization, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const ACME = DEMO_ORGS.acme.id;
const GLOBEX = DEMO_ORGS.globex.id;

/** Ids of organisations that do not exist: well-formed, so they pass validation. */
const MISSING_ORGS = [
  '01900000-0000-7000-8000-0000000000ff',
  '01900000-0000-7000-8000-000000000003',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '4b6c2a51-8f1e-4c55-9a43-2d0f5b1e7c11',
];

/** Ids that are not ids at all: each must be refused the same way for everyone. */
const MALFORMED_ORGS = [
  'not-an-id',
  "1' or '1'='1",
  '%25',
  '..%2F..%2Fusers',
  '01900000-0000-7000-8000-00000000000',
  '01900000-0000-7000-8000-0000000000011',
  '{01900000-0000-7000-8000-000000000001}',
  '01900000000070008000000000000001',
  `${ACME}%00`,
  `${ACME}%20`,
  '%E2%80%AE1000-0000',
  '-1',
  '9999999999999999999999',
];

/** Query strings sent with every org id: none, valid ones, and an invalid one. */
const QUERIES = [
  '',
  '?page[size]=100',
  '?filter[query]=a&sort=-name',
  '?filter[status]=active&page[number]=2',
  '?page[size]=0',
];

interface Identity {
  label: string;
  jar: CookieJar;
  /** The organisation the session is of. */
  orgId: string;
  /** Whether it may list that organisation's users. */
  admin: boolean;
}

/**
 * SPEC.md §6: every identity against every organisation id. Nothing of another
 * organisation is ever returned, and a foreign organisation is answered exactly like one that
 * does not exist, so the answers reveal nothing about which organisations exist.
 */
describe('tenant isolation', () => {
  let server: TestServer;
  const identities: Identity[] = [];
  const usersOf = new Map<string, Set<string>>();

  const list = (jar: CookieJar | undefined, orgId: string, query = '') =>
    fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users${query}`, {
      headers: jar ? { cookie: jar.header() } : {},
    });
  /** What a client can observe of an answer, to compare byte for byte. */
  const observe = async (response: Response) => ({
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: await response.text(),
  });

  beforeAll(async () => {
    server = await startTestServer();
    const rows = await server.database.db.selectFrom('users').select(['org_id', 'id']).execute();
    for (const row of rows) {
      const ids = usersOf.get(row.org_id) ?? new Set<string>();
      ids.add(row.id);
      usersOf.set(row.org_id, ids);
    }
    const sign = async (email: string, password: string) => (await signIn(server.baseUrl, email, password)).jar;
    identities.push(
      { label: 'admin of Acme', jar: await sign('admin@acme.example', 'admin'), orgId: ACME, admin: true },
      { label: 'admin of Globex', jar: await sign('admin@globex.example', 'admin'), orgId: GLOBEX, admin: true },
      { label: 'plain user of Acme', jar: await sign('user@acme.example', 'user'), orgId: ACME, admin: false },
    );
    for (const [orgName, orgId, admin] of [
      ['Globex', GLOBEX, true],
      ['Acme', ACME, false],
    ] as const) {
      const { jar, landing } = await signIn(server.baseUrl, 'pat@partners.example', 'pat');
      await chooseOrganization(jar, server.baseUrl, await landing.text(), orgName);
      identities.push({ label: `pat, signed in to ${orgName}`, jar, orgId, admin });
    }
  });
  afterAll(() => server.close());

  it('has two organisations whose users do not overlap', () => {
    expect(usersOf.get(ACME)?.size).toBe(423);
    expect(usersOf.get(GLOBEX)?.size).toBe(62);
  });

  it('leads every index of a table with an organisation column by it, but for the listed exceptions', async () => {
    const { rows } = await sql<{ index: string; first: string }>`
      select i.relname as index, coalesce(a.attname, '(an expression)') as first
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_namespace n on n.oid = t.relnamespace and n.nspname = current_schema()
      join pg_class i on i.oid = x.indexrelid
      left join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
      where exists (select 1 from pg_attribute o where o.attrelid = t.oid and o.attname = 'org_id' and not o.attisdropped)
        and not t.relispartition
      order by 1`.execute(server.database.db);
    expect(rows.length).toBeGreaterThan(10);
    const notLedByOrg = rows.filter((row) => row.first !== 'org_id').map((row) => row.index);
    // Lookups that come before any organisation is known: a session by its id (and the sweep of
    // expired ones), a person's memberships in every organisation at sign-in. And the search's GIN
    // index, whose candidates are filtered by organisation, bounded by the table's parts (next test).
    // And the job workers' look for unfinished jobs of every organisation.
    expect(notLedByOrg).toEqual([
      'jobs_unfinished_idx',
      'sessions_expires_idx',
      'sessions_pkey',
      'users_account_idx',
      'users_search_keys_idx',
    ]);
  });

  it('cuts the users table into parts by organisation, each with every index of the table', async () => {
    const { db } = server.database;
    const { rows: key } = await sql<{ key: string }>`
      select pg_get_partkeydef('users'::regclass) as key`.execute(db);
    expect(key[0]?.key).toBe('HASH (org_id)');
    const { rows: parts } = await sql<{ part: string; indexes: number }>`
      select c.relname as part, (select count(*)::int from pg_index x where x.indrelid = c.oid) as indexes
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'users'::regclass order by 1`.execute(db);
    const { rows: table } = await sql<{ indexes: number }>`
      select count(*)::int as indexes from pg_index where indrelid = 'users'::regclass`.execute(db);
    expect(parts.map((part) => part.part)).toEqual(
      Array.from({ length: 16 }, (_, n) => `users_p${String(n).padStart(2, '0')}`),
    );
    expect(new Set(parts.map((part) => part.indexes))).toEqual(new Set([table[0]?.indexes]));
    // A statement keyed by one organisation reads one part.
    const plan = await db.selectFrom('users').select('id').where('org_id', '=', ACME).where('name', '=', 'x').explain();
    expect(plan.map((row) => String(row['QUERY PLAN'])).join('\n')).not.toMatch(/Append/);
  });

  it('lists only users of the organisation signed into, for its admins', async () => {
    for (const identity of identities.filter((i) => i.admin)) {
      const own = usersOf.get(identity.orgId) ?? new Set();
      for (let page = 1; page <= 5; page++) {
        const response = await list(identity.jar, identity.orgId, `?page[size]=100&page[number]=${page}`);
        expect(response.status, identity.label).toBe(200);
        const document = (await response.json()) as { data: { id: string }[]; meta: { total_count: number } };
        expect(document.meta.total_count).toBe(own.size);
        for (const user of document.data) expect(own.has(user.id), identity.label).toBe(true);
      }
    }
  });

  it('answers a foreign organisation exactly like one that does not exist, for every identity and query', async () => {
    for (const identity of identities) {
      const foreign = [ACME, GLOBEX].filter((id) => id !== identity.orgId);
      for (const query of QUERIES) {
        const reference = await observe(await list(identity.jar, MISSING_ORGS[0] ?? '', query));
        expect([400, 403], `${identity.label} ${query}`).toContain(reference.status);
        for (const orgId of [...foreign, ...MISSING_ORGS]) {
          const answer = await observe(await list(identity.jar, orgId, query));
          expect(answer, `${identity.label} → ${orgId}${query}`).toEqual(reference);
        }
      }
    }
  });

  it('answers a plain user the same for its own organisation as for any other', async () => {
    for (const identity of identities.filter((i) => !i.admin)) {
      const reference = await observe(await list(identity.jar, MISSING_ORGS[0] ?? ''));
      expect(reference.status).toBe(403);
      for (const orgId of [ACME, GLOBEX]) {
        expect(await observe(await list(identity.jar, orgId)), `${identity.label} → ${orgId}`).toEqual(reference);
      }
    }
  });

  it('answers every malformed org id with the same 400 for everyone, naming only the parameter', async () => {
    for (const orgId of MALFORMED_ORGS) {
      const answers = await Promise.all(identities.map(async (i) => observe(await list(i.jar, orgId))));
      const [first] = answers;
      expect(first?.status, orgId).toBe(400);
      for (const answer of answers) expect(answer, orgId).toEqual(first);
      const document = JSON.parse(first?.body ?? '{}') as { errors: { source?: { parameter?: string } }[] };
      expect(document.errors[0]?.source?.parameter, orgId).toBe('org_id');
      expect(first?.body).not.toMatch(/acme|globex|select|stack/i);
    }
  });

  it('answers 401 without a session, whether or not the organisation exists', async () => {
    const reference = await observe(await list(undefined, MISSING_ORGS[0] ?? ''));
    expect(reference.status).toBe(401);
    for (const orgId of [ACME, GLOBEX, ...MISSING_ORGS]) {
      expect(await observe(await list(undefined, orgId))).toEqual(reference);
    }
  });

  it('answers other methods on the users path the same for every organisation', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answers = await Promise.all(
        [ACME, GLOBEX, ...MISSING_ORGS].map(async (orgId) => {
          const response = await fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users`, {
            method,
            headers: { cookie: identities[0]?.jar.header() ?? '' },
          });
          // The 404 names the path it was asked; apart from that, every answer is the same.
          const answer = await observe(response);
          return { ...answer, body: answer.body.replaceAll(orgId, '{org_id}') };
        }),
      );
      for (const answer of answers) expect(answer, method).toEqual({ ...answers[0], status: 404 });
    }
  });

  it('gives every session its own organisation and nothing else, whatever the session lookup is asked', async () => {
    for (const identity of identities) {
      for (const query of ['', `?org_id=${ACME}`, `?org_id=${GLOBEX}`, `?org_id=${MISSING_ORGS[0]}`, '?sub=x']) {
        const response = await fetch(`${server.baseUrl}/apis/oidc/userinfo${query}`, {
          headers: { cookie: identity.jar.header() },
        });
        expect(response.status, identity.label).toBe(200);
        const claims = (await response.json()) as Record<string, unknown>;
        expect(claims.org_id, `${identity.label}${query}`).toBe(identity.orgId);
        expect(usersOf.get(identity.orgId)?.has(String(claims.sub))).toBe(true);
      }
    }
  });

  it('lets pat sign in only to an organisation pat belongs to, whatever the form posts', async () => {
    const acmeAdminUser = await server.database.db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .select('users.id')
      .where('accounts.email', '=', 'admin@acme.example')
      .executeTakeFirstOrThrow();
    for (const membership of [acmeAdminUser.id, MISSING_ORGS[0] ?? '', 'x'.repeat(64), '']) {
      const { jar, landing } = await signIn(server.baseUrl, 'pat@partners.example', 'pat');
      const page = await landing.text();
      const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
      const answer = await fetch(new URL(action, server.baseUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ membership }).toString(),
      });
      expect(answer.status, membership).toBe(400);
      expect(setCookieOf(answer, 'sid')).toBeUndefined();
      const after = await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: jar.header() } });
      expect(after.status).toBe(400);
    }
  });

  it('never lets a person of one organisation choose a membership at all', async () => {
    const globexUser = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', GLOBEX)
      .executeTakeFirstOrThrow();
    // admin@acme.example has one membership: the sign-in completes without a choice, so an
    // organisation form posted on a fresh interaction has no pending sign-in to choose from.
    const start = await fetch(`${server.baseUrl}/auth/start`, { redirect: 'manual' });
    const startCookie = setCookieOf(start, 'auth_tx')?.split(';')[0] ?? '';
    const authorize = await fetch(start.headers.get('location') ?? '', {
      redirect: 'manual',
      headers: { cookie: startCookie },
    });
    const interaction = new URL(authorize.headers.get('location') ?? '', server.baseUrl);
    const cookie = authorize.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const answer = await fetch(`${interaction.href}/organization`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ membership: globexUser.id }).toString(),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
  });
});
