/**
 * Lines that point at other documents of the site: RSL 1.0's `License:` (its licence terms)
 * and `LLMs:` (its llms.txt). Reported, never read as a permission.
 */
import type { Extra } from '../model/extras.ts';

/** A `License:` or `LLMs:` line: the address as written, and its line. */
export interface RootLink {
  /** The value as written (an absolute URL, or a path the reader resolves). */
  readonly value: string;
  /** Its line (1-based). */
  readonly line: number;
}

/** Keys that mean `LLMs:` in the wild. */
const LLMS_KEYS = new Set(['llms', 'llms-txt', 'llms.txt']);

/** The non-empty `key` lines of `extras`, in file order. */
export function rootLinks(extras: readonly Extra[], key: 'license' | 'llms'): RootLink[] {
  const keys = key === 'llms' ? LLMS_KEYS : new Set([key]);
  return extras.flatMap((e) =>
    keys.has(e.key) && e.value.length > 0 ? [{ value: e.value, line: e.line }] : [],
  );
}
