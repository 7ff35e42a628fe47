import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';
import * as listPerformance from './0002-list-performance.ts';
import * as pageAnchors from './0003-page-anchors.ts';
import * as signInAttempts from './0004-sign-in-attempts.ts';
import * as searchGrams from './0005-search-grams.ts';
import * as coveringFilterIndexes from './0006-covering-filter-indexes.ts';
import * as searchDomains from './0007-search-domains.ts';
import * as orderedCountLocks from './0008-ordered-count-locks.ts';
import * as keptSearches from './0009-kept-searches.ts';
import * as searchLists from './0010-search-lists.ts';
import * as expiredPayloadsIndex from './0011-expired-payloads-index.ts';
import * as heavySearches from './0012-heavy-searches.ts';
import * as pageBuckets from './0013-page-buckets.ts';
import * as bucketSearchCounts from './0014-bucket-search-counts.ts';
import * as searchWords from './0015-search-words.ts';
import * as searchSpans from './0016-search-spans.ts';
import * as mailboxEnds from './0017-mailbox-ends.ts';
import * as mailboxEndsCovered from './0018-mailbox-ends-covered.ts';
import * as usersByOrganisation from './0019-users-by-organisation.ts';
import * as sessionRoleFunction from './0020-session-role-function.ts';
import * as searchWordsVirama from './0021-search-words-virama.ts';
import * as bucketCountsAtLoad from './0022-bucket-counts-at-load.ts';
import * as searchWordsMarks from './0023-search-words-marks.ts';
import * as partGrams from './0024-part-grams.ts';

/** The versioned migrations, in order. Add a file and a line; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-list-performance': listPerformance,
  '0003-page-anchors': pageAnchors,
  '0004-sign-in-attempts': signInAttempts,
  '0005-search-grams': searchGrams,
  '0006-covering-filter-indexes': coveringFilterIndexes,
  '0007-search-domains': searchDomains,
  '0008-ordered-count-locks': orderedCountLocks,
  '0009-kept-searches': keptSearches,
  '0010-search-lists': searchLists,
  '0011-expired-payloads-index': expiredPayloadsIndex,
  '0012-heavy-searches': heavySearches,
  '0013-page-buckets': pageBuckets,
  '0014-bucket-search-counts': bucketSearchCounts,
  '0015-search-words': searchWords,
  '0016-search-spans': searchSpans,
  '0017-mailbox-ends': mailboxEnds,
  '0018-mailbox-ends-covered': mailboxEndsCovered,
  '0019-users-by-organisation': usersByOrganisation,
  '0020-session-role-function': sessionRoleFunction,
  '0021-search-words-virama': searchWordsVirama,
  '0022-bucket-counts-at-load': bucketCountsAtLoad,
  '0023-search-words-marks': searchWordsMarks,
  '0024-part-grams': partGrams,
};

/**
 * Migrations that rewrite the users table: a rewritten table has no visibility map, so every
 * index-only scan reads the table too (a search with filters 3× slower) until it is vacuumed, and
 * PGlite never vacuums by itself. The runner vacuums after them, outside their transaction.
 */
export const vacuumUsersAfter: ReadonlySet<string> = new Set(['0007-search-domains', '0019-users-by-organisation']);
