/**
 * One explained answer for a crawler and a URL: may it fetch the page, index it, use it to
 * train AI, use it for search, and is text-and-data mining reserved; each with the line,
 * header, tag or file that said so. robots.txt first; the TDMRep file and the page (headers
 * and head) only where robots.txt lets the crawler fetch them.
 */
import {
  resolveTdm,
  type TdmAnswer,
  type TdmSource,
  type TdmStatement,
} from '../../core/tdmrep-entry.ts';
import { decideUsage, robotsTxtStatements } from '../../core/internal.ts';
import { pagePolicy, type PagePolicyResult } from '../../meta/index.ts';
import type { AppliedDirective } from '../../meta/internal.ts';
import type { FetchOutcome } from '../net/robots-http.ts';
import type { FetchSource, RobotsState, TdmrepState } from '../files/state.ts';
import type { RefusedHop } from '../../cache/index.ts';
import { declaredLinks, llmsTxtOf, type DeclaredLink, type LlmsTxtFetch } from './site-links.ts';
import {
  readLater,
  type CheckReason,
  type CheckResult,
  type StateVerdictOptions,
} from './verdict.ts';
import { describeEdge, parsePriceHeader } from '../../core/internal.ts';
import type {
  Edge,
  UsageDecision,
  UsageLabel,
  UsageSource,
  UsageStatement,
} from '../../core/index.ts';

/** May the crawler do one thing with the page (fetch it, index it), and why. */
export interface Permission {
  /** The answer. */
  may: boolean;
  /** In words, for people. */
  why: string;
  /** What said so, when something on the site did. */
  source?: UsageSource;
}

/** What asking for an origin's tdmrep.json came to (see `UsageAnswer.tdm`). */
export interface TdmrepFetch {
  /** The file's URL (the origin's `/.well-known/tdmrep.json`). */
  url: string;
  /** HTTP status of the last answer; 0 when none arrived. */
  status: number;
  /** The redirect hop not followed, when one was refused. */
  refusedHop?: RefusedHop;
}

/**
 * What a crawler may do with a page, and why (`RobotsClient.usage`): fetch it (robots.txt),
 * index it (robots meta tags, `X-Robots-Tag`), use it for AI training or search (AIPREF
 * Content-Usage, Content-Signal, `noai`), and mine it (W3C TDMRep).
 */
export interface UsageAnswer {
  /** The URL as given. */
  url: string;
  /** The URL as it is requested, when that is not what was given (see `CheckResult.requestUrl`). */
  requestUrl?: string;
  /** The crawler names used (the first with a group of its own, for several). */
  agent: string[];
  /** May it fetch the page (robots.txt). */
  fetch: Permission;
  /** May it index the page (robots meta tags and `X-Robots-Tag`). */
  index: Permission;
  /** May the content train AI models (Content-Usage, Content-Signal, `noai`...). */
  'train-ai': UsageDecision;
  /** May the content be used for search. */
  search: UsageDecision;
  /**
   * W3C TDMRep: the site's tdmrep.json rule, then the page's headers and meta tags. `file`:
   * the origin's `/.well-known/tdmrep.json`, when it was asked for, with its status and the
   * redirect hop not followed (its own robots.txt disallows it, or cannot be read now).
   */
  tdm: TdmAnswer & {
    /** The tdmrep.json asked for, when it was. */
    file?: TdmrepFetch;
  };
  /** The robots.txt: where, its status, where the copy came from, and what stood in its place (see `CheckResult.edge`). */
  robotsTxt: {
    /** Its URL. */
    url: string;
    /** Its HTTP status; 0 when none arrived. */
    status: number;
    /** Where the copy came from (see `CheckResult.source`). */
    source: FetchSource;
    /** The verdict's reason for the page's URL. */
    reason: CheckReason;
    /** What answered in its place, when something did. */
    edge?: Edge;
    /** Its `License:` lines (RSL 1.0): where the site's licence terms are. */
    licenses?: DeclaredLink[];
  };
  /**
   * The site's llms.txt, when it was asked for (`llms: true`): reported, never read as a
   * permission.
   */
  llmsTxt?: LlmsTxtFetch;
  /**
   * The page, when it was fetched (only when robots.txt allows it). `refusedHop`: it
   * redirected to a URL that was not requested, because that URL's own robots.txt disallows
   * it (or cannot be read now). `edge`: a bot wall or a payment demand answered in its
   * place (its rules are then unknown). `charged`: what a site charged for it
   * (`crawler-charged`, when `crawlerMaxPrice` let the crawler pay).
   */
  page?: {
    /** The page's HTTP status; 0 when none arrived. */
    status: number;
    /** What went wrong fetching it, if anything did. */
    error?: string;
    /** The redirect hop not followed, when one was refused. */
    refusedHop?: RefusedHop;
    /** What answered in its place, when something did. */
    edge?: Edge;
    /** What the site charged for it. */
    charged?: {
      /** An ISO 4217 code (`USD`). */
      currency: string;
      /** A decimal amount, as the site wrote it. */
      amount: string;
    };
  };
}

/** What of a `RobotsClient` the usage answer asks (the client passes itself and its seam). */
export interface UsageClient {
  robotsFor(url: string): Promise<RobotsState>;
  tdmrepFor(url: string, options?: { agent?: string | readonly string[] }): Promise<TdmrepState>;
  fetchPage(
    url: string,
    options?: { agent?: string | readonly string[]; maxBytes?: number },
  ): Promise<FetchOutcome>;
}

/** What of the client's seam the usage answer asks (see `ClientSeam`). */
export interface UsageSeam {
  names(agent?: string | readonly string[]): {
    agents: readonly string[];
    notes: readonly string[];
  };
  verdict(url: string, state: RobotsState, options?: StateVerdictOptions): CheckResult;
}

/** The combined answer; see `RobotsClient.usage`. */
export async function usageFor(
  client: UsageClient,
  seam: UsageSeam,
  url: string,
  names?: string | readonly string[],
  options: { llms?: boolean } = {},
): Promise<UsageAnswer> {
  const state = await client.robotsFor(url);
  const given = seam.names(names);
  const verdict = seam.verdict(url, state, { agents: given.agents, agentNotes: given.notes });
  const agents = verdict.agent;
  const robots = state.robots;
  // Every rule is matched against the URL as it is requested, as the verdict was.
  const requested = verdict.requestUrl ?? url;
  // What the file says (Content-Usage, Content-Signal): the same statements the tester shows.
  const said: Record<UsageLabel, UsageStatement[]> = robots
    ? robotsTxtStatements(robots, requested, agents)
    : { 'train-ai': [], search: [] };

  // TDMRep: the file's rule first (fetched only where robots.txt allows it), then the page.
  const tdmrepUrl = `${state.location.origin}/.well-known/tdmrep.json`;
  const file =
    verdict.allowed && seam.verdict(tdmrepUrl, state, { agents }).allowed
      ? await tdmrepRule(client, url, requested, agents)
      : undefined;
  const tdmStatements: TdmStatement[] = file?.statement ? [file.statement] : [];
  const page = verdict.allowed ? await pageRules(client, url, agents) : undefined;
  if (page) {
    tdmStatements.push(...(page.policy.tdm ?? []));
    for (const label of ['train-ai', 'search'] as const) said[label].push(...page.said[label]);
  }
  const tdm: UsageAnswer['tdm'] = resolveTdm(tdmStatements);
  if (file) tdm.file = file.fetch;
  if (tdm.decidedBy) {
    // Text and data mining covers training: a reservation says no to it, and its absence yes.
    said['train-ai'].push({
      preference: tdm.reservation === 'reserved' ? 'disallowed' : 'allowed',
      source: tdm.decidedBy,
    });
  }

  const licenses = declaredLinks(robots?.licenses ?? [], state.location.robotsUrl);
  const llmsTxt = options.llms ? await llmsTxtOf(client, seam, state, agents) : undefined;
  const robotsSource: UsageSource | undefined = verdict.line
    ? {
        kind: 'robots-txt',
        line: verdict.line,
        text: verdict.rule
          ? `${verdict.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.value}`
          : '',
      }
    : undefined;
  return {
    url,
    ...(verdict.requestUrl ? { requestUrl: verdict.requestUrl } : {}),
    agent: [...agents],
    fetch: {
      may: verdict.allowed,
      why: verdict.line ? `robots.txt line ${verdict.line}` : verdict.reason,
      ...(robotsSource ? { source: robotsSource } : {}),
    },
    index: indexPermission(verdict, robotsSource, page?.fetch, page?.policy),
    'train-ai': decideUsage(said['train-ai'], verdict.allowed),
    search: decideUsage(said.search, verdict.allowed),
    tdm,
    robotsTxt: {
      url: state.location.robotsUrl,
      status: verdict.status,
      source: verdict.source,
      reason: verdict.reason,
      ...(verdict.edge ? { edge: verdict.edge } : {}),
      ...(licenses.length > 0 ? { licenses } : {}),
    },
    ...(llmsTxt ? { llmsTxt } : {}),
    ...(page ? { page: page.fetch } : {}),
  };
}

/** The origin's tdmrep.json as fetched, and its rule for the URL as requested. */
async function tdmrepRule(
  client: UsageClient,
  url: string,
  requested: string,
  agents: readonly string[],
): Promise<{ fetch: TdmrepFetch; statement?: TdmStatement }> {
  const tdmrep = await client.tdmrepFor(url, { agent: agents });
  const { status, refusedHop } = tdmrep.entry;
  const fetch = { url: tdmrep.url, status, ...(refusedHop ? { refusedHop } : {}) };
  const rule = tdmrep.file?.match(requested);
  if (!rule) return { fetch };
  const source: TdmSource = {
    kind: 'tdmrep',
    url: tdmrep.url,
    rule: rule.index,
    location: rule.location,
  };
  const statement: TdmStatement = {
    source,
    ...(rule.reservation ? { reservation: rule.reservation } : {}),
    ...(rule.policy ? { policy: rule.policy } : {}),
  };
  return { fetch, statement };
}

/** The page fetched, its rules (headers and head), and what they say of AI use and search. */
async function pageRules(
  client: UsageClient,
  url: string,
  agents: readonly string[],
): Promise<{
  fetch: NonNullable<UsageAnswer['page']>;
  policy: PagePolicyResult;
  said: Record<UsageLabel, UsageStatement[]>;
}> {
  const response = await client.fetchPage(url, { agent: agents });
  const charged = parsePriceHeader(response.headers['crawler-charged'] ?? '');
  const fetch = {
    status: response.status,
    ...(response.error ? { error: response.error } : {}),
    ...(response.refusedHop ? { refusedHop: response.refusedHop } : {}),
    ...(response.edge ? { edge: response.edge } : {}),
    ...(charged ? { charged } : {}),
  };
  // A wall's page is not the site's: its tags (a challenge is `noindex`) say nothing of it.
  const walled = response.edge !== undefined;
  const policy = await pagePolicy(
    walled
      ? { headers: {} }
      : { headers: response.headers, ...(response.body ? { html: response.body } : {}) },
    agents,
  );
  const said: Record<UsageLabel, UsageStatement[]> = { 'train-ai': [], search: [] };
  for (const label of ['train-ai', 'search'] as const) {
    const preference = policy.contentUsage?.[label];
    if (preference && preference !== 'unknown') {
      said[label].push({
        preference,
        source: {
          kind: 'header',
          field: 'Content-Usage',
          text: response.headers['content-usage'] ?? '',
        },
      });
    }
  }
  if (!policy.policy.ai) {
    const by = policy.decidedBy.ai;
    said['train-ai'].push({
      preference: 'disallowed',
      source: by ? directiveSource(by) : { kind: 'header', field: 'X-Robots-Tag', text: 'noai' },
    });
  }
  return { fetch, policy, said };
}

/** May the page be indexed: robots.txt first, then what the page's fetch and rules said. */
function indexPermission(
  verdict: CheckResult,
  robotsSource: UsageSource | undefined,
  pageFetch: UsageAnswer['page'],
  page: PagePolicyResult | undefined,
): Permission {
  if (!verdict.allowed) {
    return {
      may: false,
      why:
        verdict.reason === 'robots-txt-challenge'
          ? `not for now: ${verdict.error ?? 'a bot wall answered for the robots.txt'}, so nothing of the site is fetched`
          : readLater(verdict)
            ? 'not for now: the robots.txt cannot be reached, so nothing of the site is fetched'
            : 'not by content: robots.txt blocks fetching (the bare URL may still be indexed from links)',
      ...(robotsSource ? { source: robotsSource } : {}),
    };
  }
  if (pageFetch?.edge) {
    const text = describeEdge(pageFetch.edge);
    return { may: false, why: `not known: ${text}`, source: { kind: 'fetch', text } };
  }
  if (pageFetch?.refusedHop) {
    const text = pageFetch.refusedHop.reason;
    return { may: false, why: `not known: ${text}`, source: { kind: 'fetch', text } };
  }
  const status = pageFetch?.status ?? 0;
  if (status === 0 || status >= 400) {
    const text = status === 0 ? (pageFetch?.error ?? 'no response') : `HTTP ${status}`;
    return {
      may: false,
      why:
        status === 0
          ? `the page could not be fetched (${text})`
          : `the page answered HTTP ${status}`,
      source: { kind: 'fetch', text },
    };
  }
  const by = page?.decidedBy.index;
  return by
    ? { may: page!.policy.index, why: by.text, source: directiveSource(by) }
    : { may: true, why: 'no noindex' };
}

/** Where a page rule (meta tag or header) was written, as a usage source. */
function directiveSource(applied: AppliedDirective): UsageSource {
  return applied.kind === 'meta'
    ? {
        kind: 'meta',
        name: applied.agent === '*' ? 'robots' : applied.agent,
        line: applied.line ?? 0,
        text: applied.text,
      }
    : { kind: 'header', field: applied.field ?? 'X-Robots-Tag', text: applied.text };
}
