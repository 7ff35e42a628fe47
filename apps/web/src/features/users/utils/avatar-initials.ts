import type { User } from '../api/get-users.ts';

const firstLetter = (text: string | null) => Array.from(text?.trim() ?? '')[0] ?? '';

/**
 * SPEC.md §3: the initials when they are not blank; otherwise the first letters of the first and
 * last names in upper case; otherwise nothing.
 */
export function avatarInitials(user: Pick<User, 'initials' | 'firstName' | 'lastName'>): string {
  const initials = user.initials?.trim();
  if (initials) return initials;
  return `${firstLetter(user.firstName)}${firstLetter(user.lastName)}`.toUpperCase();
}
