import { sql } from 'kysely';
import { openDatabase } from './src/db/database.ts';
import { createUsersRepository } from './src/repositories/users-repository.ts';

const d = await openDatabase({
  databaseUrl: process.env.DBURL,
  dataDir: '',
  onStatement: (s) => {
    if (process.env.SHOW) console.log(s);
  },
});
const orgId = (
  await d.db.selectFrom('organizations').select('id').where('slug', '=', 'bench-1000000').executeTakeFirstOrThrow()
).id;
const r = createUsersRepository(d.db);
for (const q of JSON.parse(process.env.QS!)) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    await r.listUsers(orgId, { pageSize: 25, pageNumber: 1, ...q });
    times.push(performance.now() - s);
  }
  console.log(times.map((t) => t.toFixed(1)).join(' / '), JSON.stringify(q));
}
await d.close();
