import type { Migration } from 'kysely';
import * as baseline from './0001-baseline.ts';
import * as signInsAndPreferences from './0002-sign-ins-and-preferences.ts';
import * as signInDayCounts from './0003-sign-in-day-counts.ts';
import * as userActions from './0004-user-actions.ts';
import * as invitations from './0005-invitations.ts';
import * as jobs from './0006-jobs.ts';
import * as coveringFilterIndexes from './0007-covering-filter-indexes.ts';
import * as generatedCountTriggers from './0008-generated-count-triggers.ts';
import * as searchGramInitials from './0009-search-gram-initials.ts';
import * as searchFilterKeys from './0010-search-filter-keys.ts';

/**
 * The versioned migrations, in order: the baseline holds the schema as it is; each later change is
 * a new numbered file and a line here, and a file that has shipped is never edited.
 */
export const migrations: Record<string, Migration> = {
  '0001-baseline': baseline,
  '0002-sign-ins-and-preferences': signInsAndPreferences,
  '0003-sign-in-day-counts': signInDayCounts,
  '0004-user-actions': userActions,
  '0005-invitations': invitations,
  '0006-jobs': jobs,
  '0007-covering-filter-indexes': coveringFilterIndexes,
  '0008-generated-count-triggers': generatedCountTriggers,
  '0009-search-gram-initials': searchGramInitials,
  '0010-search-filter-keys': searchFilterKeys,
};
