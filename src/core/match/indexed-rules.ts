import type { PathChars } from './path-chars.ts';

/**
 * What a `RuleIndex` reads of the rules it indexes, by rule id: the parsed file's rule table
 * (`model/tables.ts`) is the one implementation. Declared here, below the model, so that
 * matching never imports the model it matches over.
 */
export interface IndexedRules {
  /** The pattern that is matched: the value after the profile's normalisation. */
  pattern(id: number): string;
  line(id: number): number;
  isAllow(id: number): boolean;
  /** Characters of the value as written (for a value that is its own pattern, its priority). */
  valueLength(id: number): number;
  /** Whether a pattern needs more than a prefix test under the table's profile. */
  isWildPattern(pattern: string): boolean;
  /** Rules `a` and `b` have the same value as written. */
  sameValue(a: number, b: number): boolean;
  /** 1 for a match where the value stands in the text, 0 for none, -1 when it cannot tell. */
  matchInPlace(id: number, path: string, limit: number, held?: PathChars): 1 | 0 | -1;
  /** `matchInPlace` over `first..first + count`; see `RuleTable.scanInPlace`. */
  scanInPlace(
    first: number,
    count: number,
    path: string,
    limit: number,
    held: PathChars | undefined,
    out: number[],
    made: readonly (string | undefined)[],
  ): number;
}
