import type { HtmlInput } from './html.ts';
import { pagePolicy, type HeadersInput, type PagePolicyResult } from './policy.ts';

/** What robots.txt said: a `RobotsTxt.explain()` or `RobotsClient.check()` result will do. */
export interface RobotsVerdict {
  /** May the crawler fetch the URL. */
  allowed: boolean;
  /** The deciding line, when one decided. */
  line?: number;
  /** Why (a `VerdictReason` or `CheckReason`). */
  reason?: string;
}

/** The three questions a crawler asks about a page, answered together. */
export interface CrawlDecision {
  /** robots.txt lets the crawler fetch the URL. */
  fetch: boolean;
  /** The page may be indexed (no noindex, not past unavailable_after). */
  index: boolean;
  /** The page's links may be followed. */
  follow: boolean;
  /** Why each answer is what it is, in words. */
  reasons: string[];
  /** The robots.txt verdict given, when one was. */
  robots?: RobotsVerdict;
  /** The page-level rules, when the page could be fetched. */
  page?: PagePolicyResult;
}

/**
 * Combines robots.txt and the page's own rules. A URL robots.txt disallows is not fetched,
 * so its meta tags and headers are never seen: nothing may be indexed or followed from it.
 */
export async function crawlDecision(
  input: { robots: RobotsVerdict; html?: HtmlInput; headers?: HeadersInput; now?: Date },
  agent: string | readonly string[],
): Promise<CrawlDecision> {
  const { robots } = input;
  if (!robots.allowed) {
    const where = robots.line
      ? ` (line ${robots.line})`
      : robots.reason
        ? ` (${robots.reason})`
        : '';
    return {
      fetch: false,
      index: false,
      follow: false,
      reasons: [
        `robots.txt disallows fetching${where}: the page and its rules (a noindex too) are never read, so its content is not indexed; a search engine may still index the bare URL from links to it`,
      ],
      robots,
    };
  }
  const page = await pagePolicy(
    {
      ...(input.html !== undefined ? { html: input.html } : {}),
      ...(input.headers !== undefined ? { headers: input.headers } : {}),
    },
    agent,
  );
  const { policy, decidedBy } = page;
  const now = input.now ?? new Date();
  const expired =
    policy.unavailableAfter !== undefined && now.getTime() >= policy.unavailableAfter.getTime();
  const reasons: string[] = [];
  const from = (field: 'index' | 'follow' | 'unavailableAfter') => {
    const d = decidedBy[field];
    return d
      ? ` (${d.kind === 'meta' ? `meta ${d.agent === '*' ? 'robots' : d.agent}, line ${d.line}` : `${d.field ?? 'X-Robots-Tag'}${d.agent === '*' ? '' : ` for ${d.agent}`}`}: ${d.text})`
      : '';
  };
  if (!policy.index) reasons.push(`noindex${from('index')}`);
  if (expired) reasons.push(`past unavailable_after${from('unavailableAfter')}`);
  if (!policy.follow) reasons.push(`nofollow${from('follow')}`);
  return {
    fetch: true,
    index: policy.index && !expired,
    follow: policy.follow,
    reasons,
    robots,
    page,
  };
}

/** What a link's own `rel` says about following it. */
export interface LinkRel {
  /** `rel` holds `nofollow`. */
  nofollow: boolean;
  /** `rel` holds `ugc` (user-generated content). */
  ugc: boolean;
  /** `rel` holds `sponsored`. */
  sponsored: boolean;
  /** Neither the link (`nofollow`, `ugc`, `sponsored`) nor the page (`nofollow`) asks not to follow it. */
  follow: boolean;
}

/**
 * Reads a link's `rel` attribute (space-separated, any case). Google treats `ugc` and
 * `sponsored` as hints like `nofollow`; a page-level `nofollow` covers every link.
 */
export function linkRel(rel: string | null | undefined, page?: { follow: boolean }): LinkRel {
  const tokens = new Set((rel ?? '').toLowerCase().split(/\s+/).filter(Boolean));
  const nofollow = tokens.has('nofollow');
  const ugc = tokens.has('ugc');
  const sponsored = tokens.has('sponsored');
  return {
    nofollow,
    ugc,
    sponsored,
    follow: !nofollow && !ugc && !sponsored && (page?.follow ?? true),
  };
}
