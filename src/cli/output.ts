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
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
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
