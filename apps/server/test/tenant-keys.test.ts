import { describe, expect, it } from 'vitest';
import { recordedStatements, unroutedBecause } from './support/tenant-keys.ts';

describe('statements keyed by one organisation (what lets Citus route them to one shard)', () => {
  it.each([
    'select "id" from "users" where "org_id" = $1 and "status" = $2 order by "sort_name" limit $3',
    'insert into "users" ("org_id", "id", "name") values ($1, $2, $3)',
    'select "name" from "organizations" where "id" = $1',
    'select count(*) from (select 1 from "users" where "org_id" = $1 and search_text like $2 limit $3) as "m"',
    'select "u"."id" from (select "id" from "users" where "org_id" = $1 offset $2 limit $3) as "page" inner join "users" as "u" on "u"."org_id" = $4 and "u"."id" = "page"."id"',
    'select "claims" from "sessions" where "id" = $1',
    'select "organizations"."name" from "users" inner join "organizations" on "organizations"."id" = "users"."org_id" where "users"."org_id" = $1',
    `select "org_id", "id" from "jobs" where "status" in ('queued', 'running') and ("lease_expires_at" is null or "lease_expires_at" < now()) order by "created_at" limit 10`,
  ])('passes %s', (statement) => {
    expect(unroutedBecause(statement)).toBeUndefined();
  });

  it.each([
    'select "id" from "users" where "status" = $1',
    'update "users" set "status" = $1 where "id" = $2',
    'select "u"."id" from (select "id" from "users" where "org_id" = $1) as "page" inner join "users" as "u" on "u"."id" = "page"."id"',
    'select coalesce(sum(n), 0) as "n" from "user_counts" where "status" = $1',
    'select "id" from "organizations" where "slug" = $1',
    'select "organizations"."name" from "users" inner join "organizations" on "organizations"."id" = "users"."org_id" where "users"."email" = $1',
    `select "org_id", "id" from "jobs" where "status" in ('queued', 'running') order by "created_at" limit 10`,
    'update "jobs" set "status" = $1 where "id" = $2',
    'select "user_id" from "job_results" where "job_id" = $1',
  ])('refuses %s', (statement) => {
    expect(unroutedBecause(statement)).toBeDefined();
  });

  // `npm run test:api` records every statement the server sent while answering the API tests, on
  // each engine, then runs this with CHECK_RECORDED_STATEMENTS set.
  it.runIf(process.env.CHECK_RECORDED_STATEMENTS)(
    'holds for every statement the API tests made the server send',
    () => {
      const statements = recordedStatements(process.env.SQL_STATEMENTS_DIR ?? '');
      expect(statements.length).toBeGreaterThan(30);
      const unrouted = statements.flatMap((statement) => {
        const why = unroutedBecause(statement);
        return why ? [`${why}: ${statement}`] : [];
      });
      expect(unrouted).toEqual([]);
    },
  );
});
