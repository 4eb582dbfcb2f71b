import { pc } from './toolkit.ts';

/** Where commands write, and whether colour is on: only on a terminal, never with NO_COLOR. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  color: ReturnType<typeof pc.createColors>;
  /** stderr is a terminal (progress bars go there). */
  errIsTTY: boolean;
}

export function processOutput(): Output {
  // no-color.org: NO_COLOR set to anything but the empty string turns colour off.
  const enabled = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  return {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
    color: pc.createColors(enabled),
    errIsTTY: Boolean(process.stderr.isTTY),
  };
}
