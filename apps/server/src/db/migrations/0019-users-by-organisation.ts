import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/** How many parts the users table is cut into by a hash of `org_id`. */
export const USER_PARTITIONS = 16;

/** The parts' names: users_p00 to users_p15. */
export const userPartitions = Array.from(
  { length: USER_PARTITIONS },
  (_, remainder) => `users_p${String(remainder).padStart(2, '0')}`,
);

/**
 * The users table cut into 16 parts by a hash of the organisation (`partition by hash (org_id)`).
 *
 * The trigram index of the heads is the one index of tenant data not led by `org_id` (a GIN index
 * cannot be, at a price: docs/decisions.md), so a search's candidates were every organisation's
 * users who hold its trigrams, each read from the table and dropped: a common name's count in an
 * organisation of 1,000,000 read the rows of another's too ("Иван", 92–98 ms on PostgreSQL beside a
 * second organisation of 1,000,000). Each part has its own indexes, and a statement keyed by one
 * organisation reads only its part (pruned when planned): the candidates are those of the
 * organisations that share its part, a sixteenth of them on average, as sharding by organisation
 * (Citus) would bound them per shard. Every other index is led by `org_id` and reads the same
 * entries as before.
 *
 * The table is built anew: its rows copied into the parts, then its indexes and its statement
 * triggers made again with the same names and definitions (PostgreSQL fires a partitioned table's
 * statement triggers with the rows of every part in their transition tables). The parts' indexes
 * are named after the part and the table's index (`users_p03_mailbox_end_idx`), so that a plan
 * says which it read. On a large PostgreSQL table this rewrites every row and index under an
 * exclusive lock: plan it as downtime (about a minute per 1,000,000 users on PostgreSQL). The
 * runner vacuums and analyses the table afterwards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuildUsers(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuildUsers(db, false);
}

/** The columns a copy writes (every one but the generated `search_head`). */
const COPIED = `org_id, id, account_id, name, email, initials, first_name, last_name, status, is_external,
  is_system_admin, sort_name, search_text, created_at`;

/** The users table's indexes (other than its primary key): name and definition after `on`. */
const INDEXES: readonly [string, string][] = [
  ['users_account_idx', '(account_id) where account_id is not null'],
  ['users_org_account_key', '(org_id, account_id) where account_id is not null'],
  ['users_org_id_cover_idx', '(org_id, id) include (search_text, status, is_system_admin)'],
  ['users_org_sort_cover_idx', '(org_id, sort_name, id) include (search_text, status, is_system_admin)'],
  ['users_org_status_id_cover_idx', '(org_id, status, id) include (search_text, is_system_admin)'],
  ['users_org_status_sort_cover_idx', '(org_id, status, sort_name, id) include (search_text, is_system_admin)'],
  ['users_org_admin_id_cover_idx', '(org_id, is_system_admin, id) include (search_text, status)'],
  ['users_org_admin_sort_cover_idx', '(org_id, is_system_admin, sort_name, id) include (search_text, status)'],
  ['users_search_domain_idx', '(org_id, search_domain(search_text))'],
  ['users_search_words_trgm_idx', 'using gin (search_words(search_head) gin_trgm_ops)'],
  [
    'users_mailbox_end_idx',
    '(org_id, (search_mailbox_end(search_text) collate "C"), search_domain(search_text)) include (search_text, status, is_system_admin)',
  ],
];

/** The statement triggers that keep the counts, grams, kept searches, page buckets and spans. */
const TRIGGERS: readonly [name: string, event: 'insert' | 'update' | 'delete'][] = [
  ['users_count_insert', 'insert'],
  ['users_count_delete', 'delete'],
  ['users_count_update', 'update'],
  ['users_grams_insert', 'insert'],
  ['users_grams_delete', 'delete'],
  ['users_grams_update', 'update'],
  ['users_kept_searches_insert', 'insert'],
  ['users_kept_searches_delete', 'delete'],
  ['users_kept_searches_update', 'update'],
  ['users_page_buckets_insert', 'insert'],
  ['users_page_buckets_delete', 'delete'],
  ['users_page_buckets_update', 'update'],
  ['users_spans_insert', 'insert'],
  ['users_spans_update', 'update'],
];

const REFERENCING = {
  insert: 'referencing new table as inserted',
  delete: 'referencing old table as deleted',
  update: 'referencing old table as deleted new table as inserted',
} as const;

/** Makes `users` anew, cut into parts by organisation or not, with its rows, indexes and triggers. */
async function rebuildUsers(db: Kysely<unknown>, partitioned: boolean): Promise<void> {
  const unique = (name: string) => (name.endsWith('_key') ? 'unique ' : '');
  const indexes = INDEXES.flatMap(([name, definition]) => {
    if (!partitioned) return [`create ${unique(name)}index ${name} on users ${definition};`];
    // On the table only, then one per part attached to it: each part's index named after both.
    return [
      `create ${unique(name)}index ${name} on only users ${definition};`,
      ...userPartitions.flatMap((part) => {
        const partIndex = `${part}_${name.slice('users_'.length)}`;
        return [
          `create ${unique(name)}index ${partIndex} on ${part} ${definition};`,
          `alter index ${name} attach partition ${partIndex};`,
        ];
      }),
    ];
  });
  await runStatements(
    db,
    `
    create table users_rebuilt (
      org_id uuid not null,
      id uuid not null,
      account_id uuid,
      name text not null,
      email text not null,
      initials text,
      first_name text,
      last_name text,
      status text not null,
      is_external boolean not null default false,
      is_system_admin boolean not null default false,
      sort_name text collate "C" not null,
      search_text text collate "C" not null,
      created_at timestamptz not null default now(),
      search_head text generated always as (
        case when strpos(search_text, '@') > 0
          then left(search_text, length(search_text) - length(split_part(search_text, '@', -1)))
          else search_text end
      ) stored
    )${partitioned ? ' partition by hash (org_id)' : ''};
    ${
      partitioned
        ? userPartitions
            .map(
              (part, remainder) =>
                `create table ${part} partition of users_rebuilt for values with (modulus ${USER_PARTITIONS}, remainder ${remainder});`,
            )
            .join('\n')
        : ''
    }
    insert into users_rebuilt (${COPIED}) select ${COPIED} from users;
    drop table users;
    alter table users_rebuilt rename to users;
    alter table users add constraint users_pkey primary key (org_id, id);
    alter table users add constraint users_org_id_fkey foreign key (org_id) references organizations (id);
    alter table users add constraint users_account_id_fkey foreign key (account_id) references accounts (id);
    alter table users add constraint users_status_check
      check (status in ('active', 'inactive', 'pending', 'disabled'));
    ${indexes.join('\n')}
    ${TRIGGERS.map(
      ([name, event]) =>
        `create trigger ${name} after ${event} on users ${REFERENCING[event]} for each statement execute function ${name}();`,
    ).join('\n')}
    `,
  );
}
