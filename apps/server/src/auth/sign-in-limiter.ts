import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';

type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Rate limiting of the sign-in form by e-mail address and client address, in a fixed window
 * counted in the database (every server instance sees the same count; nothing in memory).
 * An attempt is counted before the password is checked, so concurrent guesses cannot slip past
 * the limit, and a refused attempt never reveals whether its password was right. A successful
 * sign-in clears the count.
 */
export function createSignInLimiter(db: Db, limits: Config['signInLimits']) {
  const keyOf = (email: string, clientAddress: string) =>
    createHash('sha256').update(`${email.trim().toLowerCase()}\n${clientAddress}`).digest('hex');
  const windowInterval = `${limits.windowSeconds} seconds`;

  return {
    /** Counts one attempt; refused once the window already holds `maxAttempts`. */
    async attempt(email: string, clientAddress: string): Promise<AttemptVerdict> {
      const key = keyOf(email, clientAddress);
      const expired = sql<boolean>`sign_in_attempts.window_started_at <= now() - ${windowInterval}::interval`;
      const row = await db
        .insertInto('sign_in_attempts')
        .values({ key, window_started_at: sql`now()`, attempts: 1 })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            attempts: sql`case when ${expired} then 1 else sign_in_attempts.attempts + 1 end`,
            window_started_at: sql`case when ${expired} then now() else sign_in_attempts.window_started_at end`,
          }),
        )
        .returning([
          'attempts',
          sql<number>`extract(epoch from (window_started_at + ${windowInterval}::interval - now()))`.as('remaining'),
        ])
        .executeTakeFirstOrThrow();
      // Rows of windows long gone are of no use to anyone; the index makes this a short range scan.
      await db
        .deleteFrom('sign_in_attempts')
        .where('window_started_at', '<', sql<Date>`now() - ${windowInterval}::interval`)
        .execute();
      if (row.attempts <= limits.maxAttempts) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(row.remaining))) };
    },

    /** A successful sign-in starts from nothing again. */
    async succeeded(email: string, clientAddress: string): Promise<void> {
      await db.deleteFrom('sign_in_attempts').where('key', '=', keyOf(email, clientAddress)).execute();
    },
  };
}

export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
