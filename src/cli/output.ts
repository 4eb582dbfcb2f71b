import { pc } from './toolkit.ts';

/**
 * Where commands write, and whether colour is on: on a terminal unless NO_COLOR is set, and
 * anywhere (a CI log, a pager) when FORCE_COLOR asks for it.
 */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  color: ReturnType<typeof pc.createColors>;
  /** stderr is a terminal (progress bars go there). */
  errIsTTY: boolean;
}

export function processOutput(): Output {
  const enabled = colorWanted(process.env, Boolean(process.stdout.isTTY));
  return {
    out: (line) => process.stdout.write(terminalSafe(line, enabled) + '\n'),
    err: (line) => process.stderr.write(terminalSafe(line, enabled) + '\n'),
    color: pc.createColors(enabled),
    errIsTTY: Boolean(process.stderr.isTTY),
  };
}

/**
 * Colour on or off: FORCE_COLOR set to anything but `''`, `0` or `false` turns it on (as
 * Node and chalk read it), then NO_COLOR set to anything but `''` turns it off (no-color.org),
 * and otherwise it is on where stdout is a terminal. FORCE_COLOR wins over NO_COLOR, as in
 * Node's own `util.inspect` colours.
 */
export function colorWanted(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR) return false;
  return isTTY;
}

/**
 * Control characters that would act on a terminal, and characters that reorder what it shows,
 * from the text of a site (a robots.txt line, a price field, an error's words) or anyone
 * else: every one but newline and tab is written as an escape (`\x1B`, `\u202E`).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The colour sequences (SGR) this output writes itself, which stay where colour is on. */
// eslint-disable-next-line no-control-regex -- ESC opens the sequence
const COLOUR = /\x1b\[(\d{1,3})m/y;
/** SGR codes picocolors writes (8, concealed text, is not among them). */
const COLOUR_CODES = new Set([
  0, 1, 2, 3, 4, 7, 9, 21, 22, 23, 24, 27, 29, 30, 31, 32, 33, 34, 35, 36, 37, 39, 40, 41, 42, 43,
  44, 45, 46, 47, 49, 90, 91, 92, 93, 94, 95, 96, 97, 100, 101, 102, 103, 104, 105, 106, 107,
]);

/**
 * `line` as it may reach a terminal: every control character escaped (see `UNSAFE`), but,
 * where colour is on, the plain colour sequences (`ESC [ n m`) that picocolors writes.
 */
export function terminalSafe(line: string, keepColours: boolean): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(line)) return line;
  UNSAFE.lastIndex = 0;
  return line.replace(UNSAFE, (char, at: number) => {
    if (keepColours && char === '\x1b') {
      COLOUR.lastIndex = at;
      const colour = COLOUR.exec(line);
      if (colour && COLOUR_CODES.has(Number(colour[1]))) return char;
    }
    const code = char.charCodeAt(0);
    return code < 0x100
      ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
      : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/**
 * `text` kept to one line: line breaks in a value (a spec's path, a URL in YAML) written as
 * `\n`, so that no value starts a line of its own, where a CI runner would read it as a
 * command (GitHub's `::add-mask::`).
 */
export function oneLine(text: string): string {
  return text.replace(/\r\n|[\n\r\u2028\u2029]/g, (found) =>
    found === '\r\n'
      ? '\\r\\n'
      : found === '\n'
        ? '\\n'
        : found === '\r'
          ? '\\r'
          : found === '\u2028'
            ? '\\u2028'
            : '\\u2029',
  );
}
