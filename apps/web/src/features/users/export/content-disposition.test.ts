// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fileNameOf } from './content-disposition.ts';

describe("the export file's name", () => {
  it("is the server's filename, quoted or not", () => {
    expect(fileNameOf('attachment; filename="users-acme-2026-11-26.csv"')).toBe('users-acme-2026-11-26.csv');
    expect(fileNameOf('attachment; filename=users-acme.csv')).toBe('users-acme.csv');
  });

  it('prefers the UTF-8 filename*', () => {
    expect(fileNameOf(`attachment; filename="users-x.csv"; filename*=UTF-8''users-%C3%BCber.csv`)).toBe(
      'users-über.csv',
    );
  });

  it('keeps only the name, and gives none for a header without one', () => {
    expect(fileNameOf('attachment; filename="../../etc/users.csv"')).toBe('users.csv');
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf(null)).toBeUndefined();
  });
});
