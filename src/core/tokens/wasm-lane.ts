/**
 * The skimming tokenizer's byte lane: `skim` over bytes (or ASCII text) in WebAssembly, with
 * 128-bit SIMD for the search of line ends, `#` and NUL (wasm-lane.wat). It gives the handler
 * the very calls `skim` gives, in the same order: blank lines and runs of lines that can only
 * be unknown keys, directives in their usual form with their value span, and every other line
 * through the JavaScript tokenizer's `line`. Per byte JavaScript is what limits the parse of
 * a robots.txt; the lane reads bytes several times faster, from the first parse (an engine
 * compiles WebAssembly before it runs, where JavaScript starts interpreted).
 *
 * Where WebAssembly is missing or refused (a content security policy, a runtime that forbids
 * compiling code), the JavaScript lane runs alone: both give the same events, which the
 * tests hold them to on generated input and on the corpus.
 */
import { WASM_LANE } from './wasm-lane-module.ts';
import { skim, skimmedLineTokenizer } from './tokenizer.ts';
import { eachLaneRule, LANE_AGENT, type SkimmingHandler } from './directive.ts';

/**
 * Larger inputs take the JavaScript lane, so that the lane's memory (the input and its
 * records, about 13 bytes per input byte at most) stays under 2 MiB. A large body is
 * tokenized in pieces of about 64 KiB (see `Source.readPiece`), so only a piece of very long
 * lines is ever over it.
 */
export const WASM_LANE_MAX_BYTES = 128 * 1024;

/**
 * Records hold a line number in 28 bits (`line << 3 | tag`, in 32): a piece that could number
 * a line past that (a body of hundreds of millions of lines, read with a raised `maxBytes`)
 * takes the JavaScript lane, which numbers lines without a bound.
 */
const LANE_MAX_LINE = 2 ** 28 - 1;

/** Record tags (see wasm-lane.wat). */
const RUN = 0;
const LINE = 1;
/** A run of usual allow and disallow lines: its records follow (see `LANE_RULE`). */
const RULES = 7;
/** A usual user-agent line (see `LANE_AGENT`). */
const AGENT = 2;
/** A record is three 32-bit cells; the lane is given room for one per input byte, and two. */
const RECORD_BYTES = 12;
const PAGE = 65536;

interface Lane {
  readonly memory: WebAssembly.Memory;
  readonly scan: (pos: number, len: number, line: number, last: number, out0: number) => number;
  bytes: Uint8Array;
  cells: Int32Array;
}

/** The compiled lane; null where it cannot run. Made at its first use. */
let lane: Lane | null | undefined;
/** The lane's memory holds a tokenization in progress (a handler that parses). */
let busy = false;
let enabled = true;
let encoder: TextEncoder | undefined;

/**
 * `skim` over `input` (bytes, or text that is ASCII where it is to count as bytes), through
 * the byte lane where it can run: same arguments, same calls to `handler`, same result.
 * `text` is the input as the handler's offsets read it (the bytes as a byte string, or the
 * text itself); `countsUtf8` as for `skim`.
 */
export function skimLane(
  input: Uint8Array | string,
  text: string,
  countsUtf8: boolean,
  handler: SkimmingHandler,
  lineNumber: number,
  first: boolean,
  last: boolean,
): number {
  const current =
    enabled &&
    !busy &&
    handler.line === undefined &&
    input.length <= WASM_LANE_MAX_BYTES &&
    // A piece has at most a line per byte, and one more.
    lineNumber + input.length + 1 <= LANE_MAX_LINE
      ? (lane ??= compile())
      : null;
  if (current === null || !load(current, input)) {
    return skim(text, countsUtf8, handler, lineNumber, first, last);
  }
  busy = true;
  try {
    const length = input.length;
    const bytes = current.bytes;
    // Google skips any prefix of the UTF-8 BOM (EF BB BF), stopping at the first mismatch;
    // ASCII text has none.
    let pos = 0;
    if (first && length > 0 && bytes[0] === 0xef) {
      pos = 1;
      if (length > 1 && bytes[1] === 0xbb) pos = length > 2 && bytes[2] === 0xbf ? 3 : 2;
    }
    const out0 = recordsAt(length);
    const count = current.scan(pos, length, lineNumber, last ? 1 : 0, out0);
    const cells = current.cells;
    let tokenizeLine: ((line: number, start: number, end: number) => void) | undefined;
    const rules = cells[(out0 >> 2) - 2]!;
    if (rules > 0) handler.expectRules?.(rules);
    for (let at = out0 >> 2, end = at + 3 * count; at < end; at += 3) {
      const head = cells[at]!;
      const tag = head & 7;
      const line = head >>> 3;
      if (tag === RULES) {
        // Most lines: handed over at once where the handler takes them so.
        if (handler.usualRules) handler.usualRules(cells, at + 3, line, cells[at + 1] !== 0);
        else usualEach(handler, cells, at + 3, line);
        at += 3 * line;
      } else if (tag === AGENT) {
        usualAgent(handler, line, cells[at + 1]!, cells[at + 2]!);
      } else if (tag === RUN) handler.other(line, cells[at + 1]!, cells[at + 2]!);
      else if (tag === LINE) {
        tokenizeLine ??= skimmedLineTokenizer(text, handler, countsUtf8);
        tokenizeLine(line, cells[at + 1]!, cells[at + 2]!);
      } else {
        // The one tag left: a sitemap line.
        handler.usual('sitemap', line, cells[at + 1]!, cells[at + 2]!);
      }
    }
    return cells[(out0 >> 2) - 1]!;
  } finally {
    busy = false;
  }
}

/** A user-agent record to the handler: `usualAgent` where it has it, else `usual`. */
function usualAgent(handler: SkimmingHandler, line: number, a: number, b: number): void {
  const start = a & LANE_AGENT.offsetMask;
  const end = b & LANE_AGENT.offsetMask;
  if (handler.usualAgent === undefined) return handler.usual('user-agent', line, start, end);
  handler.usualAgent(
    line,
    start,
    end,
    start + (b >>> LANE_AGENT.tokenShift),
    (a & LANE_AGENT.notAsciiBit) === 0,
    (a & LANE_AGENT.capitalBit) === 0,
  );
}

/** A run of rule records as one `usual` call each (a handler without `usualRules`). */
function usualEach(handler: SkimmingHandler, cells: Int32Array, at: number, count: number): void {
  eachLaneRule(cells, at, count, (allow, line, start, end, mayAlias) =>
    handler.usual(allow ? 'allow' : 'disallow', line, start, end, allow ? mayAlias : undefined),
  );
}

/**
 * Turns the byte lane off (`false`) or back on, for the tests that hold the two lanes equal;
 * returns whether it was on.
 * @internal
 */
export function useWasmLane(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** Whether the byte lane runs here (compiled at the first call). @internal */
export function wasmLaneRuns(): boolean {
  return (lane ??= compile()) !== null;
}

function compile(): Lane | null {
  try {
    const binary = Uint8Array.from(atob(WASM_LANE), (c) => c.charCodeAt(0));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(binary));
    const memory = instance.exports.memory as WebAssembly.Memory;
    return {
      memory,
      scan: instance.exports.scan as Lane['scan'],
      bytes: new Uint8Array(memory.buffer),
      cells: new Int32Array(memory.buffer),
    };
  } catch {
    // No WebAssembly, no SIMD, or compiling code is refused here.
    return null;
  }
}

/** Where the records start for an input of `length` bytes (16-byte aligned, a cell before it). */
function recordsAt(length: number): number {
  return ((length + 15) & ~15) + 16;
}

/**
 * Copies the input into the lane's memory, growing it as needed; false for text that is not
 * ASCII (its offsets are not its bytes'), or where the memory cannot grow.
 */
function load(current: Lane, input: Uint8Array | string): boolean {
  const need = recordsAt(input.length) + RECORD_BYTES * (input.length + 2) + 16;
  if (need > current.bytes.length) {
    try {
      current.memory.grow(Math.ceil((need - current.bytes.length) / PAGE));
    } catch {
      // No memory to grow into: the JavaScript lane reads this one.
      return false;
    }
    current.bytes = new Uint8Array(current.memory.buffer);
    current.cells = new Int32Array(current.memory.buffer);
  }
  if (typeof input !== 'string') {
    current.bytes.set(input, 0);
    return true;
  }
  const { read, written } = (encoder ??= new TextEncoder()).encodeInto(input, current.bytes);
  return read === input.length && written === input.length;
}
