/**
 * What the tokenizer gives its handlers: lines, directives, and the handler interfaces
 * (shared by the tokenizer and every consumer of its stream).
 */
import { utf8ByteString } from '../text/bytes.ts';
import type { DirectiveKind, KnownKind } from './kinds.ts';

/** One physical line, as Google counts lines. */
export interface LineInfo {
  /** 1-based; CR, LF and CRLF each end a line; a skipped BOM adds none. */
  line: number;
  /** Offset of the line's first byte in the (BOM-stripped) input. */
  start: number;
  /** Offset just past the line's last byte, before its terminator. */
  end: number;
  /** The line is longer than Google's buffer; bytes past MAX_LINE_BYTES were ignored. */
  truncated: boolean;
  /** The line holds a NUL byte; Google's C-string handling ignores what follows it. */
  nul: boolean;
  /** Nothing but whitespace: what the 1996 standard calls a blank line. */
  blank: boolean;
  /** Holds a `#` comment (possibly nothing else). */
  comment: boolean;
  /** Not blank, but yields no directive (no separator, or an empty key). */
  unparsable: boolean;
}

/**
 * One key/value line, as Google's parser emits it to its handler. The tokenizer reuses one
 * object for every line (a parse makes hundreds of thousands): copy what you keep. Key and
 * value are sliced out of the text only when read.
 */
export interface Directive {
  /** Its line (1-based). */
  readonly line: number;
  /** What the key was read as. */
  readonly kind: DirectiveKind;
  /** The key as written, whitespace-stripped. */
  readonly key: string;
  /** The value as written, whitespace-stripped, comment removed. */
  readonly value: string;
  /**
   * Unicode mode only: the value is a byte string although the input is text, because
   * Google's line cut split one of its characters, whose leading bytes end the value. In
   * byte mode every value is a byte string and this is false.
   */
  readonly valueIsBytes: boolean;
  /** The key was recognised only through a typo Google accepts (`disalow`, `useragent`...). */
  readonly typo: boolean;
  /** No colon: Google accepted whitespace as the separator. */
  readonly missingColon: boolean;
  /** Column (1-based, in input units: bytes, or characters for text) where the key starts. */
  readonly keyColumn: number;
  /** Column (1-based, likewise) where the value starts. */
  readonly valueColumn: number;
  /** The key is `text[keyStart, keyEnd)` of the tokenized text. */
  readonly keyStart: number;
  /** Just past the key's last unit. */
  readonly keyEnd: number;
  /** The value is `text[valueStart, valueEnd)`, unless `valueIsBytes`. */
  readonly valueStart: number;
  /** Just past the value's last unit. */
  readonly valueEnd: number;
}

/** The reused directive. */
export class DirectiveSlot implements Directive {
  line = 0;
  kind: DirectiveKind = 'unknown';
  typo = false;
  missingColon = false;
  keyColumn = 0;
  valueColumn = 0;
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;
  /** Leading bytes of a character split by the line cut (unicode mode), else empty. */
  tail = '';
  constructor(private readonly text: string) {}
  get key(): string {
    return this.text.slice(this.keyStart, this.keyEnd);
  }
  get value(): string {
    const value = this.text.slice(this.valueStart, this.valueEnd);
    return this.tail === '' ? value : utf8ByteString(value) + this.tail;
  }
  get valueIsBytes(): boolean {
    return this.tail !== '';
  }
}

/**
 * What `tokenizeBody` calls as it reads, as Google's `RobotsParseHandler`.
 *
 * @example
 * ```ts
 * import { tokenizeBody } from 'repkit/tokenizer';
 *
 * let typos = 0;
 * tokenizeBody('User-agent: *\nDisalow: /x\n', {
 *   directive(d) {
 *     if (d.typo) typos++;
 *   },
 * });
 * // typos === 1
 * ```
 */
export interface TokenHandler {
  /** Called for every line, before the line's directive (if any). */
  line?(info: LineInfo): void;
  /** Called for every key/value line (the object is reused: copy what you keep). */
  directive(directive: Directive): void;
}

/** A handler for `skim` (the parse's own; not part of the public API). */
export interface SkimmingHandler extends TokenHandler {
  /**
   * Receives, untokenized, each run of lines whose first non-blank character cannot begin a
   * key Google knows (u, a, d or s), blank lines among them: `text[start, end)`, from line
   * `firstLine`. Such lines are at most unknown keys (HTML pages served as robots.txt are
   * made of them); `rangeTokenizer` tokenizes them later, as `tokenize` would have, if
   * they are needed.
   */
  other(firstLine: number, start: number, end: number): void;
  /**
   * A directive in its usual form (a known key spelled out, the colon right after it, a
   * short line without NUL), which is nearly every one: its value is `text[valueStart,
   * valueEnd)`, no object is made. Every other directive still comes through `directive`.
   * `mayAlias`, for an allow line where the tokenizer looked: whether its value holds
   * `/index.htm` (Google's index.html alias); undefined where it did not look.
   */
  usual(
    kind: KnownKind,
    line: number,
    valueStart: number,
    valueEnd: number,
    mayAlias?: boolean,
  ): void;
  /**
   * Optional: a run of usual allow and disallow lines from the byte lane at once, in place of
   * a `usual` call each: `count` records of three cells from `records[at]`, each
   * `(valueStart, valueEnd | mayAliasBit, line << 1 | allowBit)` (see `LANE_RULE`);
   * `mayAlias`: one of them has `mayAliasBit`.
   */
  usualRules?(records: Int32Array, at: number, count: number, mayAlias: boolean): void;
  /** Optional: how many rules the byte lane hands over (`usualRules`) for the piece it read. */
  expectRules?(count: number): void;
  /**
   * Optional: a usual user-agent line from the byte lane, in place of its `usual` call, with
   * what the lane read of its value: where its product token (the leading run of ASCII
   * letters, `-` and `_`) ends, whether the value is ASCII, and whether the token is
   * lower-case already.
   */
  usualAgent?(
    line: number,
    valueStart: number,
    valueEnd: number,
    tokenEnd: number,
    ascii: boolean,
    lowerCase: boolean,
  ): void;
}

/**
 * The byte lane's rule records (see wasm-lane.wat): the value's end carries `mayAliasBit`
 * for an allow value that holds `/index.htm`; the last cell is the line, doubled, plus
 * `allowBit` for an allow line (as the rule table keeps it).
 */
export const LANE_RULE = { allowBit: 1, mayAliasBit: 1 << 30, endMask: (1 << 30) - 1 } as const;

/**
 * Each of `count` rule records from `records[at]` (see `LANE_RULE`), read back: whether it
 * is an allow line, its line, its value's span, and (for an allow line) whether the value
 * holds `/index.htm`. For the rare reader that takes them one at a time.
 */
export function eachLaneRule(
  records: Int32Array,
  at: number,
  count: number,
  visit: (allow: boolean, line: number, start: number, end: number, mayAlias: boolean) => void,
): void {
  for (let i = at; i < at + 3 * count; i += 3) {
    const end = records[i + 1]!;
    const lineAndKind = records[i + 2]!;
    visit(
      (lineAndKind & LANE_RULE.allowBit) !== 0,
      lineAndKind >>> 1,
      records[i]!,
      end & LANE_RULE.endMask,
      (end & LANE_RULE.mayAliasBit) !== 0,
    );
  }
}

/**
 * The byte lane's user-agent records (see wasm-lane.wat): offsets in the low 18 bits (a
 * piece is at most 128 KiB), the product token's length above the end, and flags above the
 * start.
 */
export const LANE_AGENT = {
  offsetMask: (1 << 18) - 1,
  tokenShift: 18,
  notAsciiBit: 1 << 30,
  capitalBit: 1 << 29,
} as const;
