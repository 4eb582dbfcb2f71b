/**
 * W3C TDMRep (TDM Reservation Protocol): a site's text-and-data-mining reservations, from
 * `/.well-known/tdmrep.json` (rules by path), the `tdm-reservation` / `tdm-policy` response
 * headers and `<meta name="tdm-reservation">` tags. Pure: fetching is the fetch layer's.
 */
import { utf8ByteString } from '../text/bytes.ts';
import { rfc9309Normalize } from '../match/pattern.ts';
import { pathParamsQuery } from '../match/url.ts';
import { matchesPattern } from '../match/wildcard.ts';
import { longPathChars } from '../match/path-chars.ts';

/** `1`: TDM rights are reserved; `0`: not reserved. */
export type TdmReservation = 'reserved' | 'not-reserved';

/** Most rules read from one tdmrep.json; the rest are reported and ignored. */
export const MAX_TDMREP_RULES = 1_000;

/** One rule of a tdmrep.json, in file order. */
export interface TdmrepRule {
  /** 0-based position in the file's array: the first match in sequence wins. */
  readonly index: number;
  /** The paths it covers: a robots.txt-style pattern (`*`, `$`). */
  readonly location: string;
  /** Undefined when the value is not 0 or 1: the spec makes the reservation unset then. */
  readonly reservation: TdmReservation | undefined;
  /** Its `tdm-policy` URL, when it gives one. */
  readonly policy?: string;
}

/** A parsed tdmrep.json. Never thrown on: problems are listed, bad rules skipped. */
export interface TdmrepFile {
  /** The rules read, in file order. */
  readonly rules: readonly TdmrepRule[];
  /** What was wrong and where (`rule 3: ...`); the file is still used as far as it can be. */
  readonly problems: readonly string[];
  /** The first rule whose location matches `url` (robots.txt-style `*` and `$`), if any. */
  match(url: string): TdmrepRule | undefined;
}

/** Reads a `tdm-reservation` value (header, meta tag or file): 1 and 0, as numbers or text. */
export function readTdmReservation(value: unknown): TdmReservation | undefined {
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return text === '1' ? 'reserved' : text === '0' ? 'not-reserved' : undefined;
}

/**
 * Parses a tdmrep.json body: a JSON array of `{ location, "tdm-reservation", "tdm-policy"? }`.
 * Lenient as a crawler must be: a body that is not a JSON array gives no rules (the site does
 * not implement the protocol) and a problem; a rule without a string `location` is skipped;
 * a reservation other than 0 or 1 keeps the rule, unset (as the spec says).
 */
export function parseTdmrep(text: string): TdmrepFile {
  const problems: string[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return file([], [`not JSON: ${(error as Error).message}`]);
  }
  if (!Array.isArray(value)) return file([], ['not a JSON array of rules']);
  const rules: TdmrepRule[] = [];
  value.forEach((item: unknown, index) => {
    if (index >= MAX_TDMREP_RULES) {
      if (index === MAX_TDMREP_RULES) {
        problems.push(`rules past the first ${MAX_TDMREP_RULES} are ignored`);
      }
      return;
    }
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`rule ${index + 1}: not an object; skipped`);
      return;
    }
    const fields = item as Record<string, unknown>;
    const location = fields['location'];
    if (typeof location !== 'string' || location === '') {
      problems.push(`rule ${index + 1}: no "location"; skipped`);
      return;
    }
    const reservation = readTdmReservation(fields['tdm-reservation']);
    if (reservation === undefined) {
      problems.push(
        `rule ${index + 1}: "tdm-reservation" is ${shown(fields['tdm-reservation'])}, not 0 or 1: unset for its location`,
      );
    }
    const policy = fields['tdm-policy'];
    if (policy !== undefined && typeof policy !== 'string') {
      problems.push(`rule ${index + 1}: "tdm-policy" is not a string; ignored`);
    }
    rules.push({
      index,
      location,
      reservation,
      ...(typeof policy === 'string' && policy !== '' ? { policy } : {}),
    });
  });
  return file(rules, problems);
}

/**
 * A JSON value in a problem message, without walking it: a value nested thousands deep (10 KB
 * of `[`) would overflow the stack of `JSON.stringify`.
 */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function file(rules: TdmrepRule[], problems: string[]): TdmrepFile {
  // Patterns normalised once, as robots.txt paths are (RFC 9309 §2.2.2: unreserved escapes
  // decoded, reserved characters encoded), so both spellings of a path compare equal.
  const patterns = rules.map((rule) => rfc9309Normalize(utf8ByteString(rule.location), true));
  return {
    rules,
    problems,
    match(url: string): TdmrepRule | undefined {
      const path = rfc9309Normalize(utf8ByteString(pathParamsQuery(url)), false);
      // As for robots.txt rules: what a long path holds is learned once for every pattern,
      // so that a pattern needing a character it lacks fails at once; a pattern repeated is
      // matched once.
      const held = longPathChars(path);
      const failed = new Set<string>();
      for (let i = 0; i < rules.length; i++) {
        const pattern = patterns[i]!;
        if (failed.has(pattern)) continue;
        if (matchesPattern(pattern, path, held)) return rules[i];
        failed.add(pattern);
      }
      return undefined;
    },
  };
}

/** A rule of an origin's `/.well-known/tdmrep.json`, as the source of a statement. */
export interface TdmrepRuleSource {
  /** A rule of the origin's `/.well-known/tdmrep.json`. */
  kind: 'tdmrep';
  /** The file's URL. */
  url: string;
  /** The rule's index in the file (0-based). */
  rule: number;
  /** The rule's `location` pattern. */
  location: string;
}

/** Where a TDMRep value was said. */
export type TdmSource =
  | TdmrepRuleSource
  | {
      /** A response header of the resource. */
      kind: 'header';
      /** Which header. */
      field: 'tdm-reservation' | 'tdm-policy';
      /** Its value, as sent. */
      text: string;
    }
  | {
      /** A `<meta>` tag of the page. */
      kind: 'meta';
      /** Which tag. */
      name: 'tdm-reservation' | 'tdm-policy';
      /** Its line in the HTML (1-based). */
      line: number;
      /** Its `content`. */
      text: string;
    };

/** One source's values; a property it does not state is absent. */
export interface TdmStatement {
  /** Where it was stated. */
  readonly source: TdmSource;
  /** The reservation it states, if it states one. */
  readonly reservation?: TdmReservation;
  /** The policy URL it states, if it states one. */
  readonly policy?: string;
}

/** The TDMRep answer for one resource. */
export interface TdmAnswer {
  /** Whether TDM rights are reserved; `unset` when no source says. */
  readonly reservation: TdmReservation | 'unset';
  /** The TDM Policy URL, only while rights are reserved (the spec: not processed otherwise). */
  readonly policy?: string;
  /** Where the reservation came from (none when unset). */
  readonly decidedBy?: TdmSource;
  /** Every statement considered, in the order of precedence (later ones supersede). */
  readonly statements: readonly TdmStatement[];
}

/**
 * Combines statements given in the spec's processing order (the tdmrep.json rule, then the
 * response headers, then the HTML meta tags): each later value supersedes the earlier one of
 * the same property, and a source that is silent on a property does not reset it.
 */
export function resolveTdm(statements: readonly TdmStatement[]): TdmAnswer {
  let reservation: TdmReservation | undefined;
  let decidedBy: TdmSource | undefined;
  let policy: string | undefined;
  for (const statement of statements) {
    if (statement.reservation !== undefined) {
      reservation = statement.reservation;
      decidedBy = statement.source;
    }
    if (statement.policy !== undefined) policy = statement.policy;
  }
  return {
    reservation: reservation ?? 'unset',
    ...(reservation === 'reserved' && policy !== undefined ? { policy } : {}),
    ...(decidedBy ? { decidedBy } : {}),
    statements,
  };
}
