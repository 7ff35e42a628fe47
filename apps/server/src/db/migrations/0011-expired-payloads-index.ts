import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The identity provider's payloads by expiry, so that each write can remove a few expired ones
 * (oidc-adapter.ts) with a short range scan, as the sessions' expiry index (0001) serves the
 * sessions' sweep: neither table grows without bound.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    'create index oidc_payloads_expires_idx on oidc_payloads (expires_at) where expires_at is not null;',
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop index oidc_payloads_expires_idx;');
}
