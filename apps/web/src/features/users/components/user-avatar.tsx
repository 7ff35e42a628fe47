import type { User } from '../api/get-users.ts';
import { avatarInitials } from '../utils/avatar-initials.ts';

/**
 * The initials avatar: decorative (the name is next to it), drawn by the table's styles
 * (`cellClasses.avatar` in table-layout.ts) as MUI's letter avatar is.
 */
export function UserAvatar({
  user,
  className,
}: {
  user: Pick<User, 'initials' | 'firstName' | 'lastName'>;
  className?: string;
}) {
  return (
    <span aria-hidden="true" className={className}>
      {avatarInitials(user)}
    </span>
  );
}
