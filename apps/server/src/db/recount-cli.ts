// `npm run recount -- [--org <id>]`: recomputes the kept counts of one organisation, or of all,
// from their users (see recount.ts), printing each organisation and a summary.
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
  const orgs = await database.db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .$if(values.org !== undefined, (query) => query.where('id', '=', values.org ?? ''))
    .orderBy('id')
    .execute();
  if (values.org !== undefined && orgs.length === 0) {
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
