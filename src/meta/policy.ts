import { productToken, type UsageLabel, type UsagePreference } from '../core/index.ts';
import { readTdmReservation, type TdmSource, type TdmStatement } from '../core/tdmrep-entry.ts';
import { usagePreferences } from '../core/internal.ts';

import {
  isMoreRestrictive,
  OPEN_POLICY,
  parseDirective,
  VALUED_DIRECTIVES,
  type Directive,
  type DirectiveProblem,
  type PagePolicy,
  type PolicyField,
} from './directives.ts';
import { robotsTagDirectives } from './robots-tag.ts';
import type { DirectiveSource } from './directive-source.ts';
import { MAX_HEAD_CHARS, readHeadMetas, type HeadRead, type HtmlInput } from './html.ts';

/** Response headers: a `Headers` object or a plain record (values may repeat as arrays). */
export type HeadersInput = Headers | Record<string, string | readonly string[] | undefined>;

export type { DirectiveSource } from './directive-source.ts';

/** A directive that applies to the crawler, and where it was written. */
export interface AppliedDirective extends DirectiveSource {
  /** The directive's name, lower-cased (`noindex`, `max-snippet`...). */
  name: string;
}

/** Something in the page's rules that could not be read as a directive, and where. */
export interface PagePolicyProblem extends DirectiveProblem {
  /** Where it was written. */
  source: DirectiveSource;
}

/** The page-level rules for one crawler, with what set each (`pagePolicy`). */
export interface PagePolicyResult {
  /** The crawler names the page rules were read for (lower-cased product tokens). */
  agent: string[];
  /** What the crawler may do with the page. */
  policy: PagePolicy;
  /** For each field that is not at its open default: the directive that set it. */
  decidedBy: Partial<Record<PolicyField, AppliedDirective>>;
  /** Every directive that applies to this crawler, meta tags first, in document order. */
  directives: AppliedDirective[];
  /** Unknown directives and malformed values: reported, never thrown. */
  problems: PagePolicyProblem[];
  /**
   * The `Content-Usage` response header's preferences (draft-ietf-aipref-attach: train-ai,
   * search), when the header is present.
   */
  contentUsage?: Record<UsageLabel, UsagePreference>;
  /**
   * W3C TDMRep values the page states, in precedence order: `tdm-reservation` / `tdm-policy`
   * response headers, then meta tags (later ones supersede; see `resolveTdm`). A value other
   * than 0 or 1 is listed without a reservation: the spec makes it unset, resetting nothing.
   */
  tdm?: TdmStatement[];
  /** How much of the HTML was read: stopping at the end of the head. */
  html?: {
    /** Characters of HTML read. */
    charsRead: number;
    /** `head-end`: at `</head>` or the body's start; `input-end`: the HTML ended first; `limit`: at `MAX_HEAD_CHARS`. */
    stoppedAt: HeadRead['stoppedAt'];
  };
}

/** Most directives (and problems) read from one page's meta tags and headers. */
export const MAX_DIRECTIVES = 1_000;

/**
 * The page-level rules for one crawler: `<meta name="robots">` and `X-Robots-Tag` apply to
 * every crawler, `<meta name="googlebot">` and `X-Robots-Tag: googlebot: ...` to that one;
 * a crawler obeys the generic and its own, combined, the most restrictive value winning.
 * Either input may be absent. Never throws on content.
 */
export async function pagePolicy(
  input: { html?: HtmlInput; headers?: HeadersInput },
  agent: string | readonly string[],
): Promise<PagePolicyResult> {
  const agents = [agent]
    .flat()
    .map((a) => productToken(a).toLowerCase())
    .filter((a) => a !== '');
  const applies = (name: string) => name === '*' || name === 'robots' || agents.includes(name);
  const directives: AppliedDirective[] = [];
  const problems: PagePolicyProblem[] = [];
  let capped = false;
  const collect = (entries: DirectiveSource[]) => {
    for (const source of entries) {
      if (!applies(source.agent)) continue;
      if (directives.length + problems.length >= MAX_DIRECTIVES) {
        capped = true;
        break;
      }
      const { directive, problem } = parseDirective(source.text);
      if (problem) problems.push({ ...problem, source });
      if (directive) directives.push({ ...source, name: directive.name });
      if (directive) parsed.set(directives.at(-1)!, directive);
    }
  };
  const parsed = new Map<AppliedDirective, Directive>();
  const tdm: TdmStatement[] = [];
  if (input.headers !== undefined) {
    for (const field of ['tdm-reservation', 'tdm-policy'] as const) {
      for (const text of headerValues(input.headers, field)) {
        tdm.push(tdmStatement({ kind: 'header', field, text: text.trim() }, field, text));
      }
    }
  }

  const limits: string[] = [];
  const html =
    input.html === undefined ? undefined : await readHead(input.html, tdm, limits, collect);
  if (input.headers !== undefined) {
    collect(headerDirectives(headerValues(input.headers, 'x-robots-tag')));
    collect(robotsTagDirectives(headerValues(input.headers, 'robots-tag')));
  }

  if (capped) limits.push(`directives past the first ${MAX_DIRECTIVES} were not read`);
  for (const message of limits) {
    problems.push({
      kind: 'limit',
      text: '',
      message,
      source: { kind: input.html !== undefined ? 'meta' : 'header', agent: '*', text: '' },
    });
  }

  const { policy, decidedBy } = combined(directives, parsed);
  const usage = input.headers === undefined ? [] : headerValues(input.headers, 'content-usage');
  return {
    agent: agents,
    policy,
    decidedBy,
    directives,
    problems,
    ...(usage.length > 0 ? { contentUsage: usagePreferences(usage.join(', ')) } : {}),
    ...(tdm.length > 0 ? { tdm } : {}),
    ...(html ? { html } : {}),
  };
}

/**
 * The head's meta tags: TDM statements kept in `tdm`, directive lists given to `collect`,
 * and what the head's bounds left unread in `limits`.
 */
async function readHead(
  input: HtmlInput,
  tdm: TdmStatement[],
  limits: string[],
  collect: (entries: DirectiveSource[]) => void,
): Promise<NonNullable<PagePolicyResult['html']>> {
  const head = await readHeadMetas(input);
  if (head.stoppedAt === 'limit') {
    limits.push(
      `the head was still open after ${MAX_HEAD_CHARS} characters; the rest of the page was not read`,
    );
  }
  if (head.metasDropped > 0) {
    limits.push(`${head.metasDropped} meta tags past the first 1,000 were not read`);
  }
  for (const meta of head.metas) {
    const name = meta.name;
    if (name === 'tdm-reservation' || name === 'tdm-policy') {
      const source: TdmSource = { kind: 'meta', name, line: meta.line, text: meta.content };
      tdm.push(tdmStatement(source, name, meta.content));
      continue;
    }
    collect(
      splitDirectives(meta.content).map((text) => ({
        kind: 'meta',
        agent: meta.name === 'robots' ? '*' : meta.name,
        text,
        line: meta.line,
      })),
    );
  }
  return { charsRead: head.charsRead, stoppedAt: head.stoppedAt };
}

/** The directives combined: per field, the most restrictive value, and the one that set it. */
function combined(
  directives: readonly AppliedDirective[],
  parsed: Map<AppliedDirective, Directive>,
): { policy: PagePolicy; decidedBy: PagePolicyResult['decidedBy'] } {
  const policy: PagePolicy = { ...OPEN_POLICY };
  const decidedBy: PagePolicyResult['decidedBy'] = {};
  for (const applied of directives) {
    const { sets } = parsed.get(applied)!;
    for (const field of Object.keys(sets) as PolicyField[]) {
      if (isMoreRestrictive(field, sets[field] as never, policy[field] as never)) {
        (policy as unknown as Record<string, unknown>)[field] = sets[field];
        decidedBy[field] = applied;
      }
    }
  }
  return { policy, decidedBy };
}

/**
 * Splits a directive list on commas, keeping the comma after the weekday of an
 * `unavailable_after` date (`unavailable_after: Friday, 25-Jun-10 15:00:00 PST`).
 */
export function splitDirectives(list: string): string[] {
  const out: string[] = [];
  for (const piece of list.split(',')) {
    const text = piece.trim();
    if (text === '') continue;
    const last = out.at(-1);
    if (
      last !== undefined &&
      /^unavailable_after\s*:\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*$/i.test(last)
    ) {
      out[out.length - 1] = `${last}, ${text}`;
    } else {
      out.push(text);
    }
  }
  return out;
}

/**
 * X-Robots-Tag values to directives with their crawler: `googlebot: noindex, nofollow` scopes
 * what follows to googlebot, up to the next `name:` that is not a directive of its own.
 */
export function headerDirectives(values: readonly string[]): DirectiveSource[] {
  const out: DirectiveSource[] = [];
  values.forEach((value, i) => {
    let scope = '*';
    for (let text of splitDirectives(value)) {
      const prefix = /^([a-z][a-z0-9_.-]*)\s*:\s*(.*)$/is.exec(text);
      if (prefix && !VALUED_DIRECTIVES.has(prefix[1]!.toLowerCase())) {
        scope = prefix[1]!.toLowerCase();
        text = prefix[2]!.trim();
        if (text === '') continue;
      }
      out.push({ kind: 'header', agent: scope, text, header: i + 1 });
    }
  });
  return out;
}

/** Every value of a header, from a `Headers` object or a plain record (any case). */
export function headerValues(headers: HeadersInput, name: string): string[] {
  if (
    typeof (headers as Headers).get === 'function' &&
    typeof (headers as Headers).forEach === 'function'
  ) {
    const value = (headers as Headers).get(name);
    return value === null ? [] : [value];
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== name || value === undefined || value === null) continue;
    // A line feed separates repeated fields kept in one string (`RobotsClient.fetchPage`).
    for (const item of Array.isArray(value) ? value : [value]) {
      values.push(...String(item).split('\n'));
    }
  }
  return values;
}

/** One TDMRep header field or meta tag as a statement (an unreadable reservation states none). */
function tdmStatement(
  source: TdmStatement['source'],
  name: 'tdm-reservation' | 'tdm-policy',
  text: string,
): TdmStatement {
  if (name === 'tdm-policy') {
    const policy = text.trim();
    return policy === '' ? { source } : { source, policy };
  }
  const reservation = readTdmReservation(text);
  return reservation === undefined ? { source } : { source, reservation };
}
