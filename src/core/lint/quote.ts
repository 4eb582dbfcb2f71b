import { displayText, type ByteString } from '../text/bytes.ts';

/** Most bytes of a value a diagnostic quotes: a message is read on one line. */
export const QUOTED_AT_MOST = 100;

/**
 * A value as a message quotes it: in double quotes, as text, and when longer than
 * `QUOTED_AT_MOST` bytes its start only, with how long it is (a 400 KiB path is one line of a
 * report, not 400 KiB of it).
 */
export function quoted(value: ByteString): string {
  if (value.length <= QUOTED_AT_MOST) return `"${displayText(value)}"`;
  const length = value.length.toLocaleString('en');
  return `"${displayText(value.slice(0, QUOTED_AT_MOST))}…" (${length} bytes)`;
}
