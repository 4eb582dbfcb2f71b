import { displayText, utf8ByteString, wellFormed, type ByteString } from './bytes.ts';

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
  private constructor(
    readonly text: string,
    /** The text holds characters, not bytes. */
    readonly isText: boolean,
    /** The text is known to be ASCII, so its characters are its bytes. */
    readonly ascii: boolean,
  ) {}

  static ofBytes(bytes: ByteString): Source {
    return new Source(bytes, false, false);
  }

  /** `ascii`: the text is known to be ASCII (undefined: not known). */
  static ofText(text: string, ascii = false): Source {
    return new Source(text, true, ascii);
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
}
