import type { DatabaseHandle, Db } from '../../apps/server/src/db/database.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import type { NewUserRow } from '../../apps/server/src/db/schema.ts';
import { createAccount, DEMO_ORGS, insertUsers } from '../../apps/server/src/db/seed.ts';
import { seedLargeOrganization } from '../../apps/server/src/db/seed-large.ts';
import { uuidv7 } from '../../apps/server/src/lib/ids.ts';
import { searchText, sortName } from '../../apps/server/src/lib/user-text.ts';

export type { Db };
export { createAccount, DEMO_ORGS, seedLargeOrganization };

/**
 * Opens a server's data folder with the server's own database code, runs `change`, and closes it.
 * The embedded database serves one process at a time: call it before the server starts (see
 * `Suite.start`'s `prepare`).
 */
export async function changeDatabase(
  dataDir: string,
  change: (db: Db, database: DatabaseHandle) => Promise<void>,
): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    await change(database.db, database);
  } finally {
    await database.close();
  }
}

export interface SeedUser {
  name: string;
  email: string;
  initials?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  status?: NewUserRow['status'];
  isExternal?: boolean;
  isSystemAdmin?: boolean;
}

/** Adds users to an organisation as the server stores them (sort and search keys included). */
export async function addUsers(db: Db, orgId: string, users: readonly SeedUser[]): Promise<void> {
  const now = Date.now();
  await insertUsers(
    db,
    users.map((user, index) => ({
      org_id: orgId,
      id: uuidv7(now + index),
      account_id: null,
      name: user.name,
      email: user.email,
      initials: user.initials ?? null,
      first_name: user.firstName ?? null,
      last_name: user.lastName ?? null,
      status: user.status ?? 'active',
      is_external: user.isExternal ?? false,
      is_system_admin: user.isSystemAdmin ?? false,
      sort_name: sortName(user.name),
      search_text: searchText(user.name, user.email),
      created_at: new Date(now + index).toISOString(),
    })),
  );
}
