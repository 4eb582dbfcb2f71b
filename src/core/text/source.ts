import {
  byteStringOf,
  bytesToByteString,
  byteStringToBytes,
  displayText,
  utf8ByteString,
  wellFormed,
  type ByteString,
} from './bytes.ts';

/** Bodies of bytes larger than this are held as bytes and tokenized in pieces (see `Source.ofLargeBytes`). */
export const LARGE_BODY = 120 * 1024;
/** The size a piece of a large body aims at. */
const PIECE_BYTES = 64 * 1024;

/** A stretch of a source's text: `text` stands at offsets `[start, end)` of the whole. */
export interface Stretch {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/**
 * What the tokenizer runs over, and what its slices stand for: the one text model of the
 * parse. Tables keep offsets into `text`; a slice becomes bytes (for matching) or readable
 * text (for people) only through this object, so no reader needs to know the mode.
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
  #text: string | undefined;
  /** The body's bytes while it is read (see `pieceBytes`): a large body's are read in pieces. */
  #bytes: Uint8Array | undefined;
  /** A large body's pieces read so far (see `ofLargeBytes`); undefined for any other. */
  #pieces: Stretch[] | undefined;
  /** The whole text as one stretch, once there is a whole text. */
  #whole: Stretch | undefined;
  /** Characters in the text. */
  readonly length: number;

  private constructor(
    text: string | undefined,
    bytes: Uint8Array | undefined,
    /** The text holds characters, not bytes. */
    readonly isText: boolean,
    /** The text is known to be ASCII, so its characters are its bytes. */
    readonly ascii: boolean,
  ) {
    this.#text = text;
    this.#bytes = bytes;
    if (text === undefined) this.#pieces = [];
    this.length = text?.length ?? bytes!.length;
  }

  static ofBytes(bytes: ByteString): Source {
    return new Source(bytes, undefined, false, false);
  }

  /**
   * Bytes as a byte string, the bytes kept while they are read (the tokenizer's byte lane
   * reads them, see `pieceBytes`).
   */
  static ofByteArray(bytes: Uint8Array): Source {
    return new Source(bytesToByteString(bytes), bytes, false, false);
  }

  /** `ascii`: the text is known to be ASCII (undefined: not known). */
  static ofText(text: string, ascii = false): Source {
    return new Source(text, undefined, true, ascii);
  }

  /**
   * A large body of bytes (more than `LARGE_BODY`), read in pieces of about 64 KiB that
   * each end with a line break, and made one string only when `text` is first asked for
   * (checks read rules from their piece, see `stretchAt`): an engine puts a string of more
   * than about 128 KiB in fresh memory of its own, which made copying the corpus's 21 large
   * files cost as much as copying the other 4,210 (and joining a 500 KiB body's pieces, 2 ms
   * on the machines measured, cost more than parsing it). The bytes are read (by
   * `readPiece`) before the parse returns; only the pieces are kept.
   */
  static ofLargeBytes(bytes: Uint8Array): Source {
    return new Source(undefined, bytes, false, false);
  }

  /**
   * The whole text; offsets in the tables are into it. A large body's pieces are joined
   * when this is first asked for (see `ofLargeBytes`).
   */
  get text(): string {
    if (this.#text === undefined) {
      this.#text = this.#pieces!.map((piece) => piece.text).join('');
      // From here on the whole text is the one stretch.
      this.#pieces = undefined;
    }
    return this.#text;
  }

  /**
   * The stretch of the text that holds offset `at` (at most `length`: an empty value may
   * stand at the end): a piece of a large body, or else the whole text. A line is never
   * split between pieces, so a value read within one stretch is read whole.
   */
  stretchAt(at: number): Stretch {
    const pieces = this.#pieces;
    if (pieces === undefined)
      return (this.#whole ??= { text: this.text, start: 0, end: this.length });
    // Pieces are about 64 KiB: a body has at most a few dozen.
    let i = 0;
    while (i < pieces.length - 1 && pieces[i]!.end <= at) i++;
    return pieces[i]!;
  }

  /**
   * The piece of the text that starts at `start` (the start of a line): the whole text but
   * for a large body of bytes, whose pieces end after the last line break within
   * `PIECE_BYTES`, or the first one after it (a line is never split), or at the end.
   */
  readPiece(start: number): string {
    const bytes = this.#bytes;
    if (this.#pieces === undefined || bytes === undefined) return this.text;
    let end = this.length;
    if (end - start > LARGE_BODY) {
      // Lines are short: the last line break is found by a few steps back.
      const window = start + PIECE_BYTES;
      let at = window - 1;
      while (at > start && at > window - 256 && bytes[at] !== 0x0a) at--;
      if (bytes[at] !== 0x0a) at = bytes.lastIndexOf(0x0a, window - 1);
      if (at < start) at = bytes.indexOf(0x0a, window);
      if (at >= 0) end = at + 1;
    }
    const piece = byteStringOf(bytes, start, end);
    this.#pieces.push({ text: piece, start, end });
    return piece;
  }

  /**
   * The bytes of the piece `[start, end)` while the body is read, where the source was made
   * of bytes; undefined for text, and once `doneReading` is called.
   */
  pieceBytes(start: number, end: number): Uint8Array | undefined {
    const bytes = this.#bytes;
    return bytes === undefined || (start === 0 && end === bytes.length)
      ? bytes
      : bytes.subarray(start, end);
  }

  /** The body has been read: its bytes are let go (only the text, or its pieces, is kept). */
  doneReading(): void {
    this.#bytes = undefined;
  }

  /**
   * Whether the text holds `part` (no line break in it), searched natively: a large body's
   * pieces one by one, never joined (a line, and so `part`, is never split between them).
   */
  includes(part: string): boolean {
    const pieces = this.#pieces;
    if (pieces === undefined) return this.text.includes(part);
    return pieces.some((piece) => piece.text.includes(part));
  }

  /** `text.slice(start, end)` for a span within one line, read from its stretch. */
  slice(start: number, end: number): string {
    const stretch = this.stretchAt(start);
    return stretch.text.slice(start - stretch.start, end - stretch.start);
  }

  /**
   * The first `count` characters (of a large body, from its first piece: the whole text is
   * not joined for it).
   */
  head(count: number): string {
    const first = this.#text ?? this.#pieces?.[0]?.text ?? '';
    return first.length > count ? first.slice(0, count) : first;
  }

  /** The first bytes of the body (at most `count`), as they were given. */
  headBytes(count: number): Uint8Array {
    const head = this.head(count);
    return this.isText
      ? new TextEncoder().encode(head).subarray(0, count)
      : byteStringToBytes(head);
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
    return this.isText && !valueIsBytes ? wellFormed(value) : displayText(value);
  }

  /** `shown`, given the value's `display` (which it is, where the value was decoded from bytes). */
  shownOf(display: string, valueIsBytes = false): string {
    return this.isText && !valueIsBytes ? wellFormed(display) : display;
  }
}
