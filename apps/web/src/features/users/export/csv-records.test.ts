// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CsvRecordCounter } from './csv-records.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Counts `text` fed in chunks of `size` bytes. */
function count(text: string, size = 3) {
  const counter = new CsvRecordCounter();
  const all = bytes(text);
  const completed: number[] = [];
  for (let at = 0; at < all.length; at += size) completed.push(counter.push(all.subarray(at, at + size)));
  return { completed, total: counter.finish() };
}

describe('counting CSV records as they arrive', () => {
  it('counts one record per line, with or without a line break after the last', () => {
    expect(count('\uFEFFName,Email\r\nAda,ada@x\r\nBob,bob@x\r\n').total).toBe(3);
    expect(count('Name,Email\nAda,ada@x\nBob,bob@x').total).toBe(3);
    expect(count('').total).toBe(0);
  });

  it('does not end a record at a line break inside quotes, nor at escaped quotes', () => {
    const text = 'Name,Email\r\n"Ada\r\nLovelace","a""d\na@x"\r\n"""=cmd""",b@x\r\n';
    expect(count(text).total).toBe(3);
    for (const size of [1, 2, 5, 64]) expect(count(text, size).total).toBe(3);
  });

  it('says how many records are complete after each chunk', () => {
    expect(count('a\nb\nc\n', 2).completed).toEqual([1, 2, 3]);
    expect(count('h\n"x\ny"\nz', 2).completed).toEqual([1, 1, 1, 2, 2]);
  });

  it('counts characters outside ASCII as content, never as breaks', () => {
    expect(count('名前\n山田,"東京\n大阪"\n👩‍💻,x\n', 1).total).toBe(3);
  });
});
