import Avatar from '@mui/material/Avatar';
import type { User } from '../api/get-users.ts';
import { avatarInitials } from '../utils/avatar-initials.ts';

/**
 * The initials avatar. Decorative (the name is next to it); its size and colours come from the
 * table (table-layout.ts), with `className`.
 */
export function UserAvatar({
  user,
  className,
}: {
  user: Pick<User, 'initials' | 'firstName' | 'lastName'>;
  className?: string;
}) {
  return (
    <Avatar aria-hidden="true" className={className}>
      {/* Without initials or names the avatar shows nothing (SPEC.md §3): an element, because MUI
          would draw its generic person icon for empty children. */}
      {avatarInitials(user) || <span />}
    </Avatar>
  );
}
