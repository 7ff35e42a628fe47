import Avatar from '@mui/material/Avatar';
import type { User } from '../api/get-users.ts';
import { avatarInitials } from '../utils/avatar-initials.ts';

/**
 * The initials avatar. Decorative (the name is next to it), in colours that pass WCAG AA
 * (dark blue on light blue, 8.9:1), unlike MUI's default white on grey.
 */
export function UserAvatar({ user }: { user: Pick<User, 'initials' | 'firstName' | 'lastName'> }) {
  return (
    <Avatar
      aria-hidden="true"
      sx={{
        width: { xs: 32, md: 40 },
        height: { xs: 32, md: 40 },
        fontSize: { xs: '0.8125rem', md: '0.9375rem' },
        fontWeight: 600,
        bgcolor: '#dbe7f7',
        color: '#0b3d91',
      }}
    >
      {/* Without initials or names the avatar shows nothing (SPEC.md §3): an element, because MUI
          would draw its generic person icon for empty children. */}
      {avatarInitials(user) || <span />}
    </Avatar>
  );
}
