/**
 * Page-level robots directives (the robots meta tag and X-Robots-Tag), as Google documents
 * them: parsing a directive list, and combining lists into one policy where the most
 * restrictive value wins.
 */

/** What a crawler may do with a page. */
export interface PagePolicy {
  /** May be shown in search results (`noindex` → false). */
  index: boolean;
  /** May follow the page's links (`nofollow` → false). */
  follow: boolean;
  /** May keep and show a cached copy (`noarchive`, `nocache` → false). */
  archive: boolean;
  /** May show a text snippet or video preview (`nosnippet` → false). */
  snippet: boolean;
  /** Longest snippet in characters; -1 for no limit (as Google writes it), 0 for none. */
  maxSnippet: number;
  /** Largest image preview. */
  maxImagePreview: 'none' | 'standard' | 'large';
  /** Longest video preview in seconds; -1 for no limit, 0 for a still image only. */
  maxVideoPreview: number;
  /** May offer a translation (`notranslate` → false). */
  translate: boolean;
  /** May index the page's images (`noimageindex` → false). */
  imageIndex: boolean;
  /** Not to be shown after this moment (`unavailable_after`), or undefined. */
  unavailableAfter: Date | undefined;
  /** May index the page when it is embedded in another (`indexifembedded`, with noindex). */
  indexIfEmbedded: boolean;
  /** May use the page for AI (`noai` → false; a common, unstandardised directive). */
  ai: boolean;
  /** May use the page's images for AI (`noimageai`, `noai` → false). */
  imageAi: boolean;
}

/** A field of `PagePolicy` (`index`, `follow`, `snippet`...). */
export type PolicyField = keyof PagePolicy;

export const OPEN_POLICY: Readonly<PagePolicy> = {
  index: true,
  follow: true,
  archive: true,
  snippet: true,
  maxSnippet: -1,
  maxImagePreview: 'large',
  maxVideoPreview: -1,
  translate: true,
  imageIndex: true,
  unavailableAfter: undefined,
  indexIfEmbedded: false,
  ai: true,
  imageAi: true,
};

/** One directive as written, e.g. `max-snippet:50`, and what it sets. */
export interface Directive {
  /** Lower-cased name: `noindex`, `max-snippet`... */
  name: string;
  /** The value after the colon, for valued directives. */
  value?: string;
  /** The text as written. */
  text: string;
  /** The fields it sets. */
  sets: Partial<PagePolicy>;
}

export interface DirectiveProblem {
  /** `limit`: part of the page or its headers was not read (see `MAX_HEAD_CHARS`, `MAX_DIRECTIVES`). */
  kind: 'unknown-directive' | 'invalid-value' | 'limit';
  /** What was written. */
  text: string;
  /** What is wrong with it, in words. */
  message: string;
}

/** Directives that take a value after a colon (how `googlebot: noindex` is told apart). */
export const VALUED_DIRECTIVES = new Set([
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'unavailable_after',
]);

const IMAGE_PREVIEW_ORDER = ['none', 'standard', 'large'] as const;

/** Parses one directive; undefined with a problem for anything it cannot use. */
export function parseDirective(text: string): {
  directive?: Directive;
  problem?: DirectiveProblem;
} {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const name = (colon < 0 ? trimmed : trimmed.slice(0, colon)).trim().toLowerCase();
  const value = colon < 0 ? undefined : trimmed.slice(colon + 1).trim();
  const ok = (sets: Partial<PagePolicy>) => ({
    directive: { name, text: trimmed, sets, ...(value !== undefined ? { value } : {}) },
  });
  const invalid = (why: string) => ({
    problem: { kind: 'invalid-value' as const, text: trimmed, message: `${name}: ${why}` },
  });
  if (VALUED_DIRECTIVES.has(name)) {
    if (value === undefined || value === '') return invalid('needs a value after ":"');
    switch (name) {
      case 'max-snippet':
      case 'max-video-preview': {
        if (!/^-?\d+$/.test(value) || Number(value) < -1)
          return invalid(
            `"${value}" is not a number of ${name === 'max-snippet' ? 'characters' : 'seconds'} (-1 for no limit)`,
          );
        return ok(
          name === 'max-snippet'
            ? { maxSnippet: Number(value) }
            : { maxVideoPreview: Number(value) },
        );
      }
      case 'max-image-preview': {
        const size = value.toLowerCase();
        if (!(IMAGE_PREVIEW_ORDER as readonly string[]).includes(size))
          return invalid(`"${value}" is not none, standard or large`);
        return ok({ maxImagePreview: size as PagePolicy['maxImagePreview'] });
      }
      default: {
        const date = parseUnavailableAfter(value);
        if (!date)
          return invalid(`"${value}" is not a date Google reads (RFC 822, RFC 850 or ISO 8601)`);
        return ok({ unavailableAfter: date });
      }
    }
  }
  // Looked up as the table's own keys: `constructor` or `__proto__` is no directive.
  const sets = FLAG_DIRECTIVES.get(name);
  if (sets && value === undefined) return ok(sets);
  return {
    problem: {
      kind: 'unknown-directive',
      text: trimmed,
      message: `unknown directive "${trimmed}": ignored`,
    },
  };
}

const FLAG_DIRECTIVES = new Map<string, Partial<PagePolicy>>([
  ['all', {}],
  ['index', { index: true }],
  ['follow', { follow: true }],
  ['none', { index: false, follow: false }],
  ['noindex', { index: false }],
  ['nofollow', { follow: false }],
  ['noarchive', { archive: false }],
  ['nocache', { archive: false }],
  ['nosnippet', { snippet: false, maxSnippet: 0 }],
  ['notranslate', { translate: false }],
  ['noimageindex', { imageIndex: false }],
  ['indexifembedded', { indexIfEmbedded: true }],
  ['noai', { ai: false, imageAi: false }],
  ['noimageai', { imageAi: false }],
]);

/**
 * `unavailable_after` dates in the formats Google documents: RFC 822/1123
 * (`25 Jun 2010 15:00:00 PST`), RFC 850 (`Friday, 25-Jun-10 15:00:00 PST`) and ISO 8601.
 */
export function parseUnavailableAfter(value: string): Date | undefined {
  const rfc850 = /^[a-z]+,\s*(\d{1,2})-([a-z]{3})-(\d{2,4})\s+(.*)$/i.exec(value);
  const text = rfc850 ? `${rfc850[1]} ${rfc850[2]} ${fullYear(rfc850[3]!)} ${rfc850[4]}` : value;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time);
}

function fullYear(year: string): string {
  if (year.length === 4) return year;
  const n = Number(year);
  return String(n < 70 ? 2000 + n : 1900 + n);
}

/**
 * Whether `candidate` is more restrictive than `current` for a field: the most restrictive
 * value wins when directives conflict, as Google combines them.
 */
export function isMoreRestrictive<F extends PolicyField>(
  field: F,
  candidate: PagePolicy[F],
  current: PagePolicy[F],
): boolean {
  switch (field) {
    case 'maxSnippet':
    case 'maxVideoPreview': {
      const limit = (n: number) => (n < 0 ? Number.POSITIVE_INFINITY : n);
      return limit(candidate as number) < limit(current as number);
    }
    case 'maxImagePreview':
      return (
        IMAGE_PREVIEW_ORDER.indexOf(candidate as 'none') <
        IMAGE_PREVIEW_ORDER.indexOf(current as 'none')
      );
    case 'unavailableAfter':
      return current === undefined || (candidate as Date).getTime() < (current as Date).getTime();
    case 'indexIfEmbedded':
      // Not a restriction but a permission: any occurrence grants it.
      return candidate === true && current === false;
    default:
      // Booleans: false (the "no..." form) is the restriction.
      return candidate === false && current === true;
  }
}
