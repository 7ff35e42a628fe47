import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';

/**
 * Tables whose rows belong to one organisation, and the column that names it: on a distributed
 * PostgreSQL (Citus) they are sharded by it, and a statement is routed to one shard only when it
 * holds an equality on that column.
 */
export const TENANT_TABLES: Readonly<Record<string, string>> = {
  organizations: 'id',
  users: 'org_id',
  user_counts: 'org_id',
  sign_in_counts: 'org_id',
  preferences: 'org_id',
  audit_events: 'org_id',
  jobs: 'org_id',
  job_results: 'org_id',
  invitations: 'org_id',
  mail_outbox: 'org_id',
};

/**
 * Statements that read a tenant table across organisations on purpose, and why. Each is a
 * multi-shard query on Citus (README, Scale-out).
 */
export const CROSS_TENANT_STATEMENTS: readonly { pattern: RegExp; why: string }[] = [
  {
    pattern: /where "users"\."status" = \$\d+ and "users"\."account_id" = \$\d+ order by "organizations"\."name"/,
    why: 'sign-in: the organisations an account belongs to, before any organisation is chosen',
  },
  {
    pattern: /where "users"\."status" = \$\d+ and "users"\."id" = \$\d+$/,
    why: "the embedded identity provider's account lookup by OpenID subject (a user's id), which names no organisation",
  },
  {
    // The whole statement: a claim (keyed) follows each job it finds.
    pattern:
      /^select "org_id", "id" from "jobs"\s+where "status" in \('queued', 'running'\) and \("lease_expires_at" is null or "lease_expires_at" < now\(\)\)\s+order by "created_at" limit 10$/,
    why: 'the job worker: the unfinished jobs no live instance holds, of every organisation',
  },
  {
    pattern:
      /^select distinct "org_id" from "mail_outbox" where "sent_at" is null and "next_attempt_at" <= now\(\) limit \$\d+$/,
    why: 'the mail sender: which organisations have mail due (each claim then names one), a small partial index',
  },
];

const TABLE_REFERENCE = /\b(?:from|join|into|update)\s+(?:only\s+)?"?([a-z_]+)"?/gi;

/** Joins of two tenant tables on their keys (`"organizations"."id" = "users"."org_id"`): co-located on Citus. */
function keyJoins(statement: string, table: string): number {
  const key = TENANT_TABLES[table] as string;
  const ref = `"${table}"\\."${key}"`;
  const other = `"(?:${Object.entries(TENANT_TABLES)
    .filter(([name]) => name !== table)
    .map(([name, column]) => `${name}"\\."${column}`)
    .join('|')})"`;
  return statement.match(new RegExp(`${ref}\\s*=\\s*${other}|${other}\\s*=\\s*${ref}`, 'g'))?.length ?? 0;
}

/**
 * Why a statement would not be routed to one organisation's shard, or undefined when it would:
 * each reference to a tenant table needs an equality of its key to a parameter (or, for an insert,
 * the key among the inserted columns, or a join on its key with another tenant table), and the
 * statement at least one equality to a parameter.
 */
export function unroutedBecause(statement: string): string | undefined {
  const tenantReferences = [...statement.matchAll(TABLE_REFERENCE)]
    .map((match) => match[1]?.toLowerCase() ?? '')
    .filter((table) => table in TENANT_TABLES);
  if (tenantReferences.length === 0) return undefined;
  if (CROSS_TENANT_STATEMENTS.some((known) => known.pattern.test(statement))) return undefined;
  for (const table of new Set(tenantReferences)) {
    const key = TENANT_TABLES[table] as string;
    const references = tenantReferences.filter((t) => t === table).length;
    const inserted = new RegExp(`insert into "?${table}"? \\([^)]*"?${key}"?[,)]`, 'i').test(statement) ? 1 : 0;
    const equalities = statement.match(new RegExp(`(?<![a-z_])"?${key}"?\\s*=\\s*\\$\\d+`, 'gi'))?.length ?? 0;
    if (equalities + inserted + keyJoins(statement, table) < references) {
      return `${table} without an equality on ${key}`;
    }
  }
  const keyed = Object.values(TENANT_TABLES).some((key) =>
    new RegExp(`(?<![a-z_])"?${key}"?\\s*=\\s*\\$\\d+|insert into`, 'i').test(statement),
  );
  return keyed ? undefined : 'no equality of a tenant key to a parameter';
}

const answering = new AsyncLocalStorage<true>();

/**
 * Records into `dir` the SQL of every statement the server sends while it answers a request (not
 * the tests' own set-up): `onStatement` for openDatabase, `watch` for the app.
 */
export function statementRecorder(dir: string) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}.sql.jsonl`);
  return {
    onStatement(sql: string) {
      if (answering.getStore()) appendFileSync(file, `${JSON.stringify(sql)}\n`);
    },
    /** Runs `start` marked as answering: what it starts (the job worker) is recorded too. */
    recording<T>(start: () => T): T {
      return answering.run(true, start);
    },
    /** Marks everything that answering each request of `server` runs, as the first thing it does. */
    watch(server: Server) {
      server.prependListener('request', () => answering.enterWith(true));
    },
  };
}

/** The distinct statements recorded into `dir`. */
export function recordedStatements(dir: string): string[] {
  const statements = new Set<string>();
  for (const name of readdirSync(dir)) {
    for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (line) statements.add(JSON.parse(line) as string);
    }
  }
  return [...statements];
}
