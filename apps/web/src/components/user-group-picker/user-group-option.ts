/** An option of the shared user/group picker (SPEC.md §3, Picker option). */
export type UserGroupOption =
  | {
      id: string;
      label: string;
      type: 'user';
      email: string;
      /** Shown in the avatar; when blank, taken from the label's first and last words. */
      initials?: string | null;
    }
  | { id: string; label: string; type: 'group' };

/** The avatar's initials: the option's own when not blank, else the first letters of the label's first and last words. */
export function optionInitials(option: { label: string; initials?: string | null }): string {
  const own = option.initials?.trim();
  if (own) return own;
  const words = option.label.trim().split(/\s+/).filter(Boolean);
  const first = Array.from(words[0] ?? '')[0] ?? '';
  const last = words.length > 1 ? (Array.from(words.at(-1) ?? '')[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

/** Users and groups may share an id: the type is part of an option's identity. */
export const optionKey = (option: UserGroupOption) => `${option.type}:${option.id}`;

/** What the search matches: the label, and a user's email. */
export const optionSearchText = (option: UserGroupOption) =>
  option.type === 'user' ? `${option.label} ${option.email}` : option.label;
