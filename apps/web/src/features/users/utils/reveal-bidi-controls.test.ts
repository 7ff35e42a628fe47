// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { revealBidiControls } from './reveal-bidi-controls.ts';

describe('revealBidiControls', () => {
  it('shows each embedding, override and isolate control as its code point', () => {
    expect(revealBidiControls('Invoice \u202Eexe.fdp')).toBe('Invoice [U+202E]exe.fdp');
    expect(revealBidiControls('rtl\u202Eelpmaxe.live@hostile.example')).toBe('rtl[U+202E]elpmaxe.live@hostile.example');
    expect(revealBidiControls('\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069')).toBe(
      '[U+202A][U+202B][U+202C][U+202D][U+2066][U+2067][U+2068][U+2069]',
    );
  });

  it('leaves ordinary text, right-to-left scripts, their marks and emoji sequences alone', () => {
    for (const text of ['Ada Admin', 'محمد منصور', 'שלום\u200F', 'می\u200Cخواهم', '👩‍👩‍👧‍👦', '<script>']) {
      expect(revealBidiControls(text)).toBe(text);
    }
  });
});
