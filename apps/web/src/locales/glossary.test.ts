// @vitest-environment node
import { SUPPORTED_LOCALES } from '@users-admin/contract';
import { glossaryProblems, parseGlossary } from '@users-admin/contract/glossary';
import { describe, expect, it } from 'vitest';
import { flatten, type Tree } from './locale-tree.ts';

// Each language names the product's terms one way, as docs/glossary/<language>.md says.

const files = import.meta.glob<Tree>('./*/translation.json', { eager: true, import: 'default' });
const glossaries = import.meta.glob<string>('../../../../docs/glossary/*.md', {
  eager: true,
  query: '?raw',
  import: 'default',
});
const tree = (language: string) => files[`./${language}/translation.json`] as Tree;
const glossary = (language: string) => glossaries[`../../../../docs/glossary/${language}.md`];

describe('the glossary', () => {
  it.each(SUPPORTED_LOCALES.filter((language) => language !== 'en'))('%s names every term its one way', (language) => {
    const markdown = glossary(language);
    expect(markdown, `docs/glossary/${language}.md`).toBeDefined();
    const terms = parseGlossary(markdown ?? '');
    expect(terms.length).toBeGreaterThan(10);
    expect(glossaryProblems(terms, flatten(tree('en')), flatten(tree(language)))).toEqual([]);
  });
});
