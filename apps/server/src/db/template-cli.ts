// `npm run build` runs this (`npm run db:template`): the template a new embedded database starts
// from (pglite-template.ts) is made now, so that even the first start skips PGlite's initdb.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from './database.ts';
import { hasTemplate } from './pglite-template.ts';

if (hasTemplate()) {
  console.log('The embedded database template is up to date.');
} else {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-template-'));
  try {
    const database = await openDatabase({ dataDir });
    await database.close();
    console.log(hasTemplate() ? 'Made the embedded database template.' : 'Could not keep the template.');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
