import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Sign-in attempts per e-mail address and client address in a fixed window, counted in the
 * database so that every server instance behind a load balancer sees the same count. The key is
 * a SHA-256 of both, so the table holds neither an e-mail address nor an IP address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table sign_in_attempts (
      key text primary key,
      window_started_at timestamptz not null,
      attempts integer not null
    );
    create index sign_in_attempts_window_idx on sign_in_attempts (window_started_at);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table sign_in_attempts;');
}
