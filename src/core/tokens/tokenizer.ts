import { keepShapeOf } from '../shapes.ts';
import { indexOrLength, isAsciiSpace, leadingBytes, nextNonAscii, utf8Cut } from '../text/bytes.ts';
import { classifyKeyAt, knownKeyAt, mayBeginKnownKey } from './keys.ts';
import type { DirectiveKind } from './kinds.ts';
import {
  DirectiveSlot,
  type Directive,
  type SkimmingHandler,
  type TokenHandler,
} from './directive.ts';
import type { Source } from '../text/source.ts';

/**
 * The one robots.txt tokenizer. It reproduces how Google's reference parser (robots.cc)
 * turns bytes into lines and lines into key/value directives, and emits events to a
 * handler: matching, the group model and the linter are all consumers of the same parse.
 */

/** Google's line buffer is 2083 × 8 bytes, one of which holds the terminating NUL. */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

export type { DirectiveKind, KnownKind } from './kinds.ts';
export type { Directive, LineInfo, SkimmingHandler, TokenHandler } from './directive.ts';

/**
 * Tokenizes a source (see `Source`), calling `handler` for every line and directive; returns
 * the number of lines. Text gives the same directives as its bytes, because every character
 * the tokenizer acts on is ASCII; where Google's byte-based line cut falls inside a
 * character, that one value is given as a byte string (see `Directive.valueIsBytes`).
 */
export function tokenize(source: Source, handler: TokenHandler): number {
  return new Tokenizer(source.text, handler, source.countsUtf8).run();
}

/**
 * `tokenize`, except that lines which can only be unknown keys go to `handler.other`
 * untokenized (see `SkimmingHandler`); with a `line` callback every line is tokenized. It
 * runs over one piece of a text (see `Source.readPiece`), which ends with a line break
 * unless it is the `last`: lines are numbered after `lineNumber`, offsets are the piece's.
 * Returns the last line number.
 */
export function skim(
  text: string,
  countsUtf8: boolean,
  handler: SkimmingHandler,
  lineNumber: number,
  first: boolean,
  last: boolean,
): number {
  return new Tokenizer(text, handler, countsUtf8, handler.line === undefined).run(
    lineNumber,
    first,
    last,
  );
}

/**
 * A function that tokenizes the runs of lines `skim` passed to `other`, in file order,
 * exactly as `tokenize` would have.
 */
export function rangeTokenizer(
  source: Source,
  handler: TokenHandler,
): (firstLine: number, start: number, end: number) => void {
  const tokenizer = new Tokenizer(source.text, handler, source.countsUtf8);
  return (firstLine, start, end) => void tokenizer.lines(start, end, firstLine - 1);
}

/**
 * A function that tokenizes one line the byte lane handed over (see wasm-lane.ts): a line
 * `skim` would give to `line`, not blank and able to begin a known key.
 */
export function skimmedLineTokenizer(
  text: string,
  handler: SkimmingHandler,
  countsUtf8: boolean,
): (line: number, start: number, end: number) => void {
  const tokenizer = new Tokenizer(text, handler, countsUtf8, true);
  return (line, start, end) => tokenizer.line(line, start, end);
}

/** A UTF-16 code unit is at most 3 UTF-8 bytes: shorter lines can never reach the cut. */
const UNICODE_SAFE_LINE = Math.floor(MAX_LINE_BYTES / 3);

class Tokenizer {
  // Next position of each special character, kept as lines are visited in order, so each
  // occurrence is searched for once and tokenizing stays linear in the input.
  private nul = -1;
  private hash = -1;
  private colon = -1;
  private nonAscii = -1;
  private readonly slot: DirectiveSlot;

  /** The run of lines being passed over: start, end and first line; start -1 for none. */
  private runStart = -1;
  private runEnd = 0;
  private runLine = 0;

  constructor(
    private readonly text: string,
    private readonly handler: TokenHandler,
    /** Text not known to be ASCII: Google's byte-based line cut counts its UTF-8 bytes. */
    private readonly countsUtf8: boolean,
    /** Lines that can only be unknown keys go to the (skimming) handler untokenized. */
    private readonly passOthers = false,
  ) {
    this.slot = new DirectiveSlot(text);
  }

  /** Tokenizes the text (a piece of one if not `first` or not `last`), lines after `lineNumber`. */
  run(lineNumber = 0, first = true, last = true): number {
    const text = this.text;
    // Google skips any prefix of the UTF-8 BOM (EF BB BF), stopping at the first mismatch.
    let pos = 0;
    if (!first) {
      // Not the start of the body.
    } else if (this.countsUtf8) {
      if (text.charCodeAt(0) === 0xfeff) pos = 1;
    } else if (text.charCodeAt(0) === 0xef) {
      pos = 1;
      if (text.charCodeAt(1) === 0xbb) {
        pos = 2;
        if (text.charCodeAt(2) === 0xbf) pos = 3;
      }
    }
    const lineCount = this.passOthers
      ? this.skimLines(pos, text.length, lineNumber, last)
      : this.lines(pos, text.length, lineNumber, last);
    this.endPassOver();
    return lineCount;
  }

  /**
   * Tokenizes the lines of `text[pos, limit)` (`pos` at the start of a line), numbering
   * them after `lineNumber`; returns the last line number. `last`: `limit` is the end of
   * the text, where Google always emits a final line; otherwise it is the end of a line.
   */
  lines(pos: number, limit: number, lineNumber: number, last = true): number {
    const text = this.text;
    let lf = -1;
    let cr = -1;
    for (;;) {
      if (lf < pos) lf = indexOrLength(text, '\n', pos);
      if (cr < pos) cr = indexOrLength(text, '\r', pos);
      const end = lf < cr ? lf : cr;
      if (end >= limit) break;
      this.line(++lineNumber, pos, end);
      // The LF of a CRLF pair does not end a second, empty line.
      pos = end === cr && lf === end + 1 && lf < limit ? end + 2 : end + 1;
    }
    if (!last) return lineNumber;
    // Google always emits the final line, empty or not.
    this.line(++lineNumber, pos, limit);
    return lineNumber;
  }

  /**
   * `lines` for the skimming tokenizer, with the lines that make up most files handled in
   * the loop itself: blank lines, lines that can only be unknown keys, and directives in
   * their usual form, which give the handler their value span at once. Anything else takes
   * `line`. One function: when the per-line part was a function of its own, whether the
   * engine inlined it varied from run to run, and the parse ran at two speeds.
   */
  private skimLines(pos: number, limit: number, lineNumber: number, last: boolean): number {
    const text = this.text;
    const handler = this.handler as SkimmingHandler;
    let lf = -1;
    let cr = -1;
    for (;;) {
      const start = pos;
      if (lf < pos) lf = indexOrLength(text, '\n', pos);
      if (cr < pos) cr = indexOrLength(text, '\r', pos);
      let end = lf < cr ? lf : cr;
      const final = end >= limit;
      if (final) {
        if (!last) break;
        // Google always emits the final line, empty or not.
        end = limit;
      }
      const line = ++lineNumber;
      // The LF of a CRLF pair does not end a second, empty line.
      pos = end === cr && lf === end + 1 && lf < limit ? end + 2 : end + 1;
      skim: {
        const lead = spaceEnd(text, start, end);
        if (lead === end) {
          if (this.runStart >= 0) this.runEnd = end;
          break skim;
        }
        if (!mayBeginKnownKey(text.charCodeAt(lead))) {
          this.passOver(line, start, end);
          break skim;
        }
        this.endPassOver();
        // A line this short is never cut, counted in bytes or characters.
        const known = end - start <= UNICODE_SAFE_LINE ? knownKeyAt(text, lead, end) : undefined;
        if (known !== undefined) {
          // Fields are read once into locals: a field read on a branch taken rarely (a
          // comment after a rule) has no type feedback when the engine first optimizes
          // this, and the engine was seen to drop and remake the optimized code there.
          let nul = this.nul;
          if (nul < start) this.nul = nul = indexOrLength(text, '\0', start);
          if (nul >= end) {
            // The key's letters and the colon hold no `#`: a comment starts in the value.
            let hash = this.hash;
            if (hash < start) this.hash = hash = indexOrLength(text, '#', start);
            const valueLimit = hash < end ? hash : end;
            const valueStart = spaceEnd(text, lead + known.name.length + 1, valueLimit);
            const valueEnd = trimmedEnd(text, valueStart, valueLimit);
            handler.usual(known.kind, line, valueStart, valueEnd);
            break skim;
          }
        }
        this.line(line, start, end);
      }
      if (final) break;
    }
    return lineNumber;
  }

  /** Adds a line to the run of lines passed over untokenized. */
  private passOver(line: number, start: number, end: number): void {
    if (this.runStart < 0) {
      this.runStart = start;
      this.runLine = line;
    }
    this.runEnd = end;
  }

  /** Hands the run of lines passed over, if any, to the handler. */
  private endPassOver(): void {
    if (this.runStart < 0) return;
    (this.handler as SkimmingHandler).other(this.runLine, this.runStart, this.runEnd);
    this.runStart = -1;
  }

  line(line: number, start: number, end: number): void {
    const text = this.text;
    const lead = spaceEnd(text, start, end);
    if (this.passOthers) {
      // Without a line callback, a blank line needs nothing; one that cannot start a key
      // Google knows is passed over, with the lines around it, to the handler as it is.
      if (lead === end) {
        if (this.runStart >= 0) this.runEnd = end;
        return;
      }
      if (!mayBeginKnownKey(text.charCodeAt(lead))) {
        this.passOver(line, start, end);
        return;
      }
      this.endPassOver();
    }
    let stop = end;
    // Unicode mode: the leading bytes of a character that Google's cut splits stay on the line.
    let tail = '';
    if (end - start > MAX_LINE_BYTES || (this.countsUtf8 && end - start > UNICODE_SAFE_LINE)) {
      stop = Math.min(end, start + MAX_LINE_BYTES);
      if (this.countsUtf8) {
        if (this.nonAscii < start) this.nonAscii = nextNonAscii(text, start);
        // Only a character before the cut can move it; most long lines are ASCII there.
        if (this.nonAscii < stop) {
          const cut = utf8Cut(text, start, end, MAX_LINE_BYTES);
          stop = cut.index;
          if (stop < end && cut.bytes < MAX_LINE_BYTES) {
            tail = leadingBytes(text, stop, MAX_LINE_BYTES - cut.bytes);
          }
        }
      }
    }
    const truncated = stop < end;
    // Google's line is a C string: nothing after a NUL byte is seen.
    let nulAt = this.nul;
    if (nulAt < start) this.nul = nulAt = indexOrLength(text, '\0', start);
    const nul = nulAt < stop;
    if (nul) stop = nulAt;
    let hashAt = this.hash;
    if (hashAt < start) this.hash = hashAt = indexOrLength(text, '#', start);
    const comment = hashAt < stop;
    if (comment) stop = hashAt;
    if (nul || comment) tail = '';

    const s = lead < stop ? lead : stop;
    let e = stop;
    // A tail is never whitespace: nothing before it is trailing.
    if (tail === '') e = trimmedEnd(text, s, e);
    const content = s !== e || tail !== '';

    let directive: Directive | undefined;
    // A line that is only a split character holds no separator: it yields no directive.
    if (s !== e) directive = this.keyValue(line, start, s, e, tail);
    if (this.handler.line) {
      this.handler.line({
        line,
        start,
        end,
        truncated,
        nul,
        blank: !content && !comment,
        comment,
        unparsable: content && directive === undefined,
      });
    }
    if (directive) this.handler.directive(directive);
  }

  /** Google's GetKeyAndValueFrom plus key classification; `s..e` is the stripped content. */
  private keyValue(
    line: number,
    lineStart: number,
    s: number,
    e: number,
    tail: string,
  ): Directive | undefined {
    const text = this.text;
    let keyEnd: number;
    let sep: number;
    let kind: DirectiveKind;
    let typo = false;
    let missingColon = false;
    // The usual form, a known key spelled out and the colon right after it, needs no search.
    const known = knownKeyAt(text, s, e);
    if (known !== undefined) {
      keyEnd = sep = s + known.name.length;
      kind = known.kind;
    } else {
      if (this.colon < s) this.colon = indexOrLength(text, ':', s);
      sep = this.colon;
      if (sep >= e) {
        // Google accepts whitespace instead of the colon, but only between exactly two words.
        sep = -1;
        for (let i = s; i < e; i++) {
          const c = text.charCodeAt(i);
          if (c === 0x20 || c === 0x09) {
            sep = i;
            break;
          }
        }
        if (sep < 0) return undefined;
        let v = sep;
        while (v < e && (text.charCodeAt(v) === 0x20 || text.charCodeAt(v) === 0x09)) v++;
        for (let i = v; i < e; i++) {
          const c = text.charCodeAt(i);
          if (c === 0x20 || c === 0x09) return undefined;
        }
        missingColon = true;
      }
      keyEnd = sep;
      keyEnd = trimmedEnd(text, s, keyEnd);
      if (keyEnd === s) return undefined;
      // Read by index: destructuring would take the iterator protocol, call by call, while cold.
      const key = classifyKeyAt(text, s, keyEnd);
      kind = key[0];
      typo = key[1];
    }
    const valueStart = spaceEnd(text, sep + 1, e);

    const slot = this.slot;
    slot.line = line;
    slot.kind = kind;
    slot.typo = typo;
    slot.missingColon = missingColon;
    slot.keyStart = s;
    slot.keyEnd = keyEnd;
    slot.keyColumn = s - lineStart + 1;
    slot.valueStart = valueStart;
    slot.valueEnd = e;
    // The tail, non-whitespace, ends the last word, which is always the value.
    slot.tail = tail;
    slot.valueColumn = valueStart - lineStart + 1;
    return slot;
  }
}

/** Keeps a sample tokenizer, and so its hidden class, alive between parses (see shapes.ts). */
export function keepTokenizerShape(): void {
  keepShapeOf(new Tokenizer('', { directive() {} }, false));
}

/**
 * Where the run of whitespace at `from` ends (at most `to`). One helper for every such loop
 * in the tokenizer: the rare ones (a space before a key's colon) share what the engine has
 * seen of the common ones (a line's indent), instead of meeting it unseen in optimized code.
 */
function spaceEnd(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isAsciiSpace(text.charCodeAt(i))) i++;
  return i;
}

/** `to` less the whitespace before it, down to `from` (see `spaceEnd`). */
function trimmedEnd(text: string, from: number, to: number): number {
  let i = to;
  while (i > from && isAsciiSpace(text.charCodeAt(i - 1))) i--;
  return i;
}
