import type { UserColumn } from '@users-admin/contract';
import { LazyTooltip } from '../../../components/lazy-tooltip.tsx';
import type { User } from '../api/get-users.ts';
import { createTimeFormats, type TimeFormats } from '../utils/time-formats.ts';
import { cellClasses as c } from './table-layout.ts';
import type { RowTexts } from './user-row.tsx';

// The Last sign-in and Created columns' contents, loaded only for an administrator who chose them
// (user-row.tsx): the page's first render does not carry them otherwise.

const formats = new Map<string, TimeFormats>();

/** The language's formats, made once: 25 to 100 rows use them at each render. */
function formatsIn(language: string): TimeFormats {
  let made = formats.get(language);
  if (!made) {
    // Intl's pt and zh are the varieties the texts are written in (Brazilian, Simplified).
    made = createTimeFormats(language);
    formats.set(language, made);
  }
  return made;
}

/** When the user last signed in, relative to now, with the exact time on hover and for screen readers. */
export function LastSignIn({ at, texts }: { at: string | null; texts: RowTexts }) {
  if (at === null) return texts.lastSignIn.never;
  const times = formatsIn(texts.language);
  const exact = times.dateTime(at);
  return (
    <>
      <LazyTooltip title={exact} describeChild>
        <time dateTime={at}>{times.relative(at, Date.now())}</time>
      </LazyTooltip>
      <span className={c.hidden}>{`, ${exact}`}</span>
    </>
  );
}

export function Created({ at, texts }: { at: string; texts: RowTexts }) {
  return <time dateTime={at}>{formatsIn(texts.language).date(at)}</time>;
}

/** The chosen times told under the user's e-mail below lg, after what is told before them. */
export function NarrowTimes({
  user,
  columns,
  texts,
  after,
}: {
  user: User;
  columns: readonly UserColumn[];
  texts: RowTexts;
  after: boolean;
}) {
  const times = formatsIn(texts.language);
  const parts: string[] = [];
  if (columns.includes('last_sign_in')) {
    const at = user.lastSignInAt;
    parts.push(
      at === null ? texts.lastSignIn.neverSignedIn : texts.lastSignIn.signedIn(times.relative(at, Date.now())),
    );
  }
  if (columns.includes('created')) parts.push(texts.createdOn(times.date(user.createdAt)));
  return `${after ? ' · ' : ''}${parts.join(' · ')}`;
}
