import { describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, exportRequestSchema } from './export.ts';
import { preferencesAttributesSchema, USER_COLUMNS } from './preferences.ts';

// The schemas' limits are literals (a property read would keep zod in the page's bundle): they
// must still be the number of columns there are.
describe('the column limits', () => {
  const values = Object.fromEntries(
    ['platform', 'third_party', 'active', 'inactive', 'pending', 'disabled', 'system_admin', 'user', 'never'].map(
      (key) => [key, key],
    ),
  );

  it('let an export name every column, and no more', () => {
    const columns = EXPORT_COLUMNS.map((key) => ({ key, header: key }));
    expect(exportRequestSchema.safeParse({ columns, values }).success).toBe(true);
    expect(exportRequestSchema.safeParse({ columns: [...columns, columns[0]], values }).success).toBe(false);
  });

  it('let the preferences show every optional column, and no more', () => {
    expect(preferencesAttributesSchema.safeParse({ users_columns: [...USER_COLUMNS] }).success).toBe(true);
    expect(preferencesAttributesSchema.safeParse({ users_columns: [...USER_COLUMNS, 'status'] }).success).toBe(false);
  });
});
