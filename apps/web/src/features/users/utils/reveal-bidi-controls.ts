/** Bidirectional embedding, override and isolate controls: LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * A name or address as it is shown: each invisible control that reorders the text after it is
 * replaced by its code point, e.g. "Invoice [U+202E]exe.fdp", which would otherwise read
 * "Invoice pdf.exe", or an address at one domain that reads as another. Marks the text
 * of right-to-left scripts needs (LRM, RLM, ZWJ, ZWNJ) are left alone.
 */
export function revealBidiControls(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (control) => `[U+${(control.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
