// `npm run seed -- --users N [--name Org]`: adds an organisation of N generated users and its admin,
// printing progress, and as its last line a JSON object with the org id and the admin's sign-in.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { uuidv7 } from '../lib/ids.ts';
import { openDatabase } from './database.ts';
import { seedLargeOrganization } from './seed-large.ts';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000' },
    name: { type: 'string' },
    seed: { type: 'string', default: '7' },
  },
});
const users = Number(values.users);
if (!Number.isInteger(users) || users < 0) {
  console.error('--users must be a whole number');
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const slug = `org-${uuidv7().slice(-12)}`;
const name = values.name ?? `Generated ${users.toLocaleString('en')}`;
const started = performance.now();
let lastReport = 0;
const adminPassword = 'admin';
const { orgId, adminEmail } = await seedLargeOrganization(database, {
  adminFirstName: 'Generated',
  adminPassword,
  name,
  slug,
  users,
  seed: Number(values.seed),
  onStep(step) {
    console.error(`  ${step}  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  },
  onProgress(done, total) {
    const now = performance.now();
    if (done === total || now - lastReport > 2000) {
      lastReport = now;
      const seconds = (now - started) / 1000;
      const rate = Math.round(done / Math.max(seconds, 0.001));
      console.error(
        `  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} users  (${rate.toLocaleString('en')} rows/s, ${seconds.toFixed(1)} s)`,
      );
    }
  },
});
await database.close();
console.error(
  `Seeded ${name}: ${users.toLocaleString('en')} users in ${((performance.now() - started) / 1000).toFixed(1)} s on ${database.engine}.`,
);
console.log(JSON.stringify({ orgId, adminEmail, adminPassword }));
