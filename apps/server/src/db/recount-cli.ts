// `npm run recount -- [--org <id>]`: recomputes the kept counts of one organisation, or of all,
// from their users (see recount.ts), printing each organisation and a summary. Without --org,
// organisations marked pending are left alone: a bulk load may still be writing them, and ending
// its mark under it would count its rows twice.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';
import { recountOrganization } from './recount.ts';

const { values } = parseArgs({ options: { org: { type: 'string' } } });
if (values.org !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(values.org)) {
  console.error(`--org must be an organisation id (a UUID), not "${values.org}"`);
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const all = await database.db
    .selectFrom('organizations as o')
    .leftJoin('user_search_grams_pending as p', 'p.org_id', 'o.id')
    .select(['o.id', 'o.name', 'p.org_id as pending'])
    .$if(values.org !== undefined, (query) => query.where('o.id', '=', values.org ?? ''))
    .orderBy('o.id')
    .execute();
  const orgs = values.org !== undefined ? all : all.filter((org) => org.pending === null);
  for (const org of all) {
    if (!orgs.includes(org)) {
      console.log(
        `  skipped ${org.name} (${org.id}): marked as being bulk-loaded; once no load runs, recount it with --org ${org.id}`,
      );
    }
  }
  if (values.org !== undefined && all.length === 0) {
    console.error(`No organisation ${values.org}`);
    process.exitCode = 2;
  }
  const started = performance.now();
  for (const [index, org] of orgs.entries()) {
    const began = performance.now();
    await recountOrganization(database.db, org.id);
    console.log(
      `  ${index + 1} / ${orgs.length}  ${org.name} (${org.id}) recounted in ${((performance.now() - began) / 1000).toFixed(1)} s`,
    );
  }
  console.log(`Recounted ${orgs.length} organisation(s) in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await database.close();
}
