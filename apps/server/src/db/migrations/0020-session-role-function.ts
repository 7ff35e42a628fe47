import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Whether a session's subject is an active System Admin of its organisation, as a function the
 * session lookup calls (`apps/server/src/auth/sessions.ts`) instead of a subquery of its own.
 *
 * Since the users table is cut into parts by organisation (migration 0019), that subquery, keyed by
 * the session row's organisation, is planned over all sixteen parts and their indexes: the lookup,
 * which runs before every API answer, took 1.8–1.9 ms on PGlite, whose statements are planned at
 * every run (0.3–0.8 ms before the parts). A PL/pgSQL function keeps its statement's plan for the
 * connection, and each run prunes it to the organisation's part: 0.11–0.15 ms. On PostgreSQL, where
 * the lookup is a prepared statement, the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    -- A subject that is not a uuid names no membership (users.id is a uuid).
    create function session_is_system_admin(org uuid, subject text) returns boolean
      language plpgsql stable as $$
    begin
      if subject is null
         or subject !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then
        return false;
      end if;
      return exists (
        select 1 from users u
        where u.org_id = org and u.id = subject::uuid
          and u.status = 'active' and u.account_id is not null and u.is_system_admin
      );
    end $$;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop function session_is_system_admin(uuid, text);');
}
