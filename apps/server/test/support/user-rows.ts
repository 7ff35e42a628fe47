import type { NewUserRow } from '../../src/db/schema.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import { searchText, sortName } from '../../src/lib/user-text.ts';

/** A new user row of an organisation, with its sort name and search text derived as the app does. */
export function userRow(
  orgId: string,
  name: string,
  email: string,
  fields: Partial<Pick<NewUserRow, 'status' | 'is_system_admin' | 'is_external' | 'last_sign_in_at'>> = {},
): NewUserRow {
  return {
    org_id: orgId,
    id: uuidv7(),
    name,
    email,
    initials: null,
    first_name: null,
    last_name: null,
    status: 'active',
    is_external: false,
    is_system_admin: false,
    ...fields,
    sort_name: sortName(name),
    search_text: searchText(name, email),
  };
}
