import { displayText, utf8ByteString, wellFormed, type ByteString } from './bytes.ts';

/**
 * What the tokenizer runs over, and what its slices stand for: the one text model of the
 * parse. Tables keep offsets into the text; a slice becomes bytes (for matching) or readable
 * text (for people) only through this object, so no reader needs to know the mode.
 *
 * A large body of bytes is held in pieces (`chunks`) that each end with a whole line: an
 * engine puts a string of more than about 128 KiB in memory of its own, fresh each time,
 * which made copying the corpus's 21 large files cost as much as copying the other 4,210.
 * Offsets are into the whole text all the same; a token never crosses pieces.
 *
 * - A byte string: one character per byte, as Google reads the bytes it was served (invalid
 *   UTF-8, or a size limit inside a character).
 * - Text: ordinary text whose non-ASCII characters stand for their UTF-8 bytes. Every
 *   character the tokenizer acts on is ASCII, so it gives the same directives without a
 *   conversion; only Google's byte-based line cut needs UTF-8 counting, and only when the
 *   text is not known to be ASCII.
 *
 * A value the line cut split inside a character is given as bytes even from text
 * (`Directive.valueIsBytes`): every method takes that flag.
 */
export class Source {
  /** Offset in the whole text of each chunk's first character. */
  readonly starts: readonly number[];
  /** Characters in the whole text. */
  readonly length: number;

  private constructor(
    /** The text, in pieces that each end with a whole line (one piece but for large bodies). */
    readonly chunks: readonly string[],
    /** The text holds characters, not bytes. */
    readonly isText: boolean,
    /** The text is known to be ASCII, so its characters are its bytes. */
    readonly ascii: boolean,
  ) {
    let at = 0;
    this.starts = chunks.map((chunk) => {
      const start = at;
      at += chunk.length;
      return start;
    });
    this.length = at;
  }

  static ofBytes(bytes: ByteString | readonly ByteString[]): Source {
    return new Source(typeof bytes === 'string' ? [bytes] : bytes, false, false);
  }

  /** `ascii`: the text is known to be ASCII (undefined: not known). */
  static ofText(text: string, ascii = false): Source {
    return new Source([text], true, ascii);
  }

  /** The chunk holding offset `at` (an offset where a chunk starts is that chunk's). */
  chunkAt(at: number): number {
    const starts = this.starts;
    let chunk = starts.length - 1;
    while (chunk > 0 && starts[chunk]! > at) chunk--;
    return chunk;
  }

  /** `[start, end)` of the whole text, a span within one line. */
  slice(start: number, end: number): string {
    const chunk = this.chunkAt(start);
    const base = this.starts[chunk]!;
    return this.chunks[chunk]!.slice(start - base, end - base);
  }

  /** The first `search` (which holds no line break) at or after `from`, or `length`. */
  indexOf(search: string, from: number): number {
    for (let chunk = this.chunkAt(from); chunk < this.chunks.length; chunk++) {
      const base = this.starts[chunk]!;
      const at = this.chunks[chunk]!.indexOf(search, Math.max(0, from - base));
      if (at >= 0) return base + at;
    }
    return this.length;
  }

  /** The tokenizer must count UTF-8 bytes for Google's line cut. */
  get countsUtf8(): boolean {
    return this.isText && !this.ascii;
  }

  /** A value as the byte string Google compares. */
  bytes(value: string, valueIsBytes = false): ByteString {
    return this.isText && !valueIsBytes && !this.ascii ? utf8ByteString(value) : value;
  }

  /** A value as read: decoded from UTF-8 where it is bytes; text as it is. */
  display(value: string, valueIsBytes = false): string {
    return this.isText && !valueIsBytes ? value : displayText(value);
  }

  /** A value as shown to people: `display`, with lone surrogates as U+FFFD (as their UTF-8 bytes are). */
  shown(value: string, valueIsBytes = false): string {
    return this.shownOf(this.display(value, valueIsBytes), valueIsBytes);
  }

  /** `shown` from the value's `display` (which it is, where the value was decoded from bytes). */
  shownOf(display: string, valueIsBytes = false): string {
    return this.isText && !valueIsBytes ? wellFormed(display) : display;
  }
}
