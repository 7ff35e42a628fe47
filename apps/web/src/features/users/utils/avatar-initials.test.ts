// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { avatarInitials } from './avatar-initials.ts';

describe('avatarInitials (SPEC.md §3)', () => {
  it('shows the initials when they are not blank', () => {
    expect(avatarInitials({ initials: 'AR', firstName: 'Zed', lastName: 'Young' })).toBe('AR');
    expect(avatarInitials({ initials: ' jd ', firstName: null, lastName: null })).toBe('jd');
  });

  it('falls back to the first letters of the first and last names, upper-cased', () => {
    expect(avatarInitials({ initials: '   ', firstName: 'ava', lastName: 'roberts' })).toBe('AR');
    expect(avatarInitials({ initials: null, firstName: 'émile', lastName: 'dupont' })).toBe('ÉD');
    expect(avatarInitials({ initials: null, firstName: 'Νίκος', lastName: null })).toBe('Ν');
  });

  it('keeps a letter outside the Basic Multilingual Plane whole', () => {
    expect(avatarInitials({ initials: null, firstName: '𠀋a', lastName: 'b' })).toBe('𠀋B');
  });

  it('shows nothing when there is nothing to show', () => {
    expect(avatarInitials({ initials: '', firstName: ' ', lastName: null })).toBe('');
  });
});
