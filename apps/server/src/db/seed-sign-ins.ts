import type { UserStatus } from '@users-admin/contract';

export const DAY_MS = 86_400_000;
/** Generated users joined over this long before the seed. */
export const SEED_HISTORY_MS = 3 * 365 * DAY_MS;

/**
 * A generated user's last sign-in: never for a pending (invited) user and one in 25 others; else
 * about half within the last 30 days, a fifth 30 to 90 days ago, the rest earlier, never before joining.
 */
export function lastSignIn(random: () => number, status: UserStatus, createdAt: number, now: number): Date | null {
  const roll = random();
  const ageRoll = random();
  if (status === 'pending' || roll < 0.04) return null;
  const days = roll < 0.52 ? ageRoll * 30 : roll < 0.72 ? 30 + ageRoll * 60 : 90 + ageRoll * 900;
  const at = now - days * DAY_MS;
  return new Date(at > createdAt ? at : createdAt + ageRoll * (now - createdAt));
}
