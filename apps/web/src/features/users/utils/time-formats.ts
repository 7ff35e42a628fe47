/**
 * The times of the Last sign-in and Created columns, in the page's language. Written in UTC, and
 * saying so: the same text for every administrator of the organisation, whatever their time zone.
 */
export interface TimeFormats {
  /** "3 days ago", "yesterday", "now". */
  relative(iso: string, now: number): string;
  /** The date and time to the minute, with its time zone. */
  dateTime(iso: string): string;
  /** The date alone. */
  date(iso: string): string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The largest unit a time difference is at least one of, as people say it: "3 weeks ago", not "21
 * days ago"; months and years by their average lengths.
 */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365.25 * DAY],
  ['month', (365.25 / 12) * DAY],
  ['week', 7 * DAY],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
  ['second', SECOND],
];

export function createTimeFormats(language: string): TimeFormats {
  const relative = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const dateTime = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });

  return {
    relative(iso, now) {
      const elapsed = now - Date.parse(iso);
      // A clock a little ahead of the server's: a sign-in "in 2 seconds" is one now.
      const past = Math.max(0, elapsed);
      const [unit, length] = UNITS.find(([, size]) => past >= size) ?? ['second', SECOND];
      return relative.format(-Math.floor(past / length), unit);
    },
    // Intl cannot name the zone beside a dateStyle; "UTC" is written so in every language here.
    dateTime: (iso) => `${dateTime.format(new Date(iso))} UTC`,
    date: (iso) => date.format(new Date(iso)),
  };
}
