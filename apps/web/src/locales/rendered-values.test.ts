// @vitest-environment node
import { SUPPORTED_LOCALES } from '@users-admin/contract';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { createTimeFormats } from '../features/users/utils/time-formats.ts';
import { flatten, type Tree } from './locale-tree.ts';

// Every text that places a value, rendered with the values that break sentences built around one:
// counts that change an article or a plural, and relative times ("now", "yesterday") where a date
// was expected. The rendered files are reviewed like the translations and kept beside them.

const files = import.meta.glob<Tree>('./*/translation.json', { eager: true, import: 'default' });
const COUNTS = [0, 1, 2, 8, 11, 21, 1_000_000];
const NOW = Date.parse('2026-11-28T12:00:00Z');
const DAY = 86_400_000;

/** The values of a text's placeholders for one count and one relative time. */
function values(language: string, count: number, ago: number) {
  const times = createTimeFormats(language);
  const at = new Date(NOW - ago).toISOString();
  return {
    count,
    done: Math.floor(count / 2),
    from: count === 0 ? 0 : 1,
    to: Math.min(count, 25),
    page: count,
    when: times.relative(at, NOW),
    date: times.date(at),
    name: 'Ada Lovelace',
    search: 'ada',
    column: language === 'en' ? 'Status' : '…',
    file: 'users.csv',
  };
}

function rendered(language: string): string {
  const english = files['./en/translation.json'] as Tree;
  const t = i18next.createInstance();
  void t.init({
    lng: language,
    resources: { [language]: { translation: files[`./${language}/translation.json`] as Tree } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const keys = [...flatten(english)]
    .filter(([, text]) => text.includes('{{'))
    .map(([key]) => key.replace(/_(one|other)$/, ''));
  const lines = [`# Texts with values: ${language}`, ''];
  for (const key of new Set(keys)) {
    // Keys read from the files are plain strings, not the typed keys `t` takes.
    const texts = new Set(
      [0, DAY, 7 * DAY].flatMap((ago) => COUNTS.map((count) => t.t(key as never, values(language, count, ago)))),
    );
    lines.push(`## ${key}`, '', ...[...texts].map((text) => `- ${text}`), '');
  }
  return lines.join('\n');
}

describe('texts with values', () => {
  it.each([...SUPPORTED_LOCALES])('%s reads right with every count and relative time', async (language) => {
    await expect(rendered(language)).toMatchFileSnapshot(`./${language}/rendered-values.md`);
  });
});
