const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Counts the records of a CSV as its bytes arrive, chunk by chunk. A line feed ends a record only
 * outside quotes (a quoted field may hold line breaks; an escaped quote `""` toggles twice). Works
 * on the bytes: in UTF-8 a quote or a line feed is never part of another character.
 */
export class CsvRecordCounter {
  #records = 0;
  #quoted = false;
  /** The record under way has some content (a last record may end without a line break). */
  #open = false;

  /** Reads a chunk; answers how many records are complete so far. */
  push(chunk: Uint8Array): number {
    for (const byte of chunk) {
      if (byte === QUOTE) {
        this.#quoted = !this.#quoted;
        this.#open = true;
      } else if (byte === LINE_FEED && !this.#quoted) {
        if (this.#open) this.#records++;
        this.#open = false;
      } else if (byte !== CARRIAGE_RETURN) {
        this.#open = true;
      }
    }
    return this.#records;
  }

  /** The number of records, the last one counted even without a line break after it. */
  finish(): number {
    return this.#records + (this.#open ? 1 : 0);
  }
}
