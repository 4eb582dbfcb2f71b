import {
  requestTarget,
  type VerdictReason,
  type Explanation,
  type Verdict,
  type RuleMatch,
  type RobotsTxt,
  type NotRobotsTxt,
  type Edge,
} from '../../core/index.ts';
import { ignoresGlobalGroup } from '../../core/internal.ts';
import { usedEntry } from '../../cache/internal.ts';
import type { AgentMode, FetchSource, RobotsState } from '../files/state.ts';

export type { AgentMode } from '../files/state.ts';
import { DEFAULT_POLICY } from '../files/lifetimes.ts';

/**
 * A Google special-case crawler (AdsBot-Google, Mediapartners-Google...) that only the `*`
 * group names: it takes no rule from that group, so nothing restricts it (Google's crawler
 * documentation). The core's matcher reads the file as Google's open-source one does, which
 * knows no crawler; the verdicts of the fetch layer answer for the crawler.
 */
export type IgnoresGlobalGroup = 'ignores-global-group';

/** Why a URL got its verdict: the core's reasons, or what the fetch came to. */
export type CheckReason =
  | VerdictReason
  | IgnoresGlobalGroup
  /** 4xx (not 429), or redirects that led nowhere: no restrictions. */
  | 'no-robots-txt'
  /** 5xx, 429 or a network failure, and no earlier copy: everything disallowed for now. */
  | 'robots-txt-unreachable'
  /** Unreachable for longer than the window (30 days) and no copy: no restrictions. */
  | 'robots-txt-unreachable-too-long'
  /**
   * A bot wall or a payment demand answered for the robots.txt (see `edge`), read as
   * unreachable (the default, `challenge: 'unreachable'`): everything disallowed for now,
   * however long it lasts. (With a good copy from before, that copy decides.)
   */
  | 'robots-txt-challenge'
  /**
   * The same, read as Google literally reads it (`challenge: 'literal'`): a 2xx page as a
   * file without rules, a 403 or 402 as no robots.txt, a 503 as unreachable.
   */
  | 'robots-txt-challenge-literal';

/**
 * Whether a verdict says "not now" rather than "no": the robots.txt cannot be read (a server
 * error, or a wall in its place), so a request waits and is asked again later.
 */
export function readLater(result: Pick<CheckResult, 'reason'>): boolean {
  return result.reason === 'robots-txt-unreachable' || result.reason === 'robots-txt-challenge';
}

/** The answer to "may I fetch this URL", with where it came from. */
export interface CheckResult {
  /** The URL as given. */
  url: string;
  /**
   * The URL as it will be requested, when that is not what was given (`/a/../private/` is
   * requested as `/private/`, `/café` as `/caf%C3%A9`): the verdict is about this one.
   */
  requestUrl?: string;
  /** The crawler names the groups were matched by. */
  agent: string[];
  /**
   * How names given were read where they were not product tokens (`Googlebot/2.1` is matched
   * as `Googlebot`; a User-Agent header as its crawler's token).
   */
  agentNotes?: string[];
  /** May the crawler fetch the URL now. */
  allowed: boolean;
  /** The robots.txt that decided (the URL's origin's `/robots.txt`). */
  robotsUrl: string;
  /** `fetched`: this call (or one it joined) fetched the file; `cache`: a fresh copy; `stale`: an older good copy, used because fetching fails. */
  source: FetchSource;
  /** HTTP status of the robots.txt the verdict is based on; 0 when none arrived. */
  status: number;
  /** The deciding line (0 for none), as `explain()` gives it. */
  line: number;
  /** The rule on `line`, if any. */
  rule?: RuleMatch;
  /** Why: a rule, or what the fetch came to. */
  reason: CheckReason;
  /** When the robots.txt used was fetched (ms since the epoch). */
  fetchedAt: number;
  /** Until when the cached result is fresh (ms since the epoch). */
  expiresAt: number;
  /** What went wrong fetching, if anything did. */
  error?: string;
  /**
   * Its code, when the fetch got no answer it could read (`ECONNREFUSED`, `ENOTFOUND`,
   * `ETIMEDOUT`, `EREFUSEDADDRESS` for an address the client refuses...; see
   * `FetchResult.errorCode`): for programs that act on the kind of failure, where `error` is
   * for people.
   */
  errorCode?: string;
  /**
   * What answered in the site's place at the last fetch of the robots.txt, when something did:
   * a bot wall, an HTML page, a payment demand (see `classifyEdge`), with its evidence.
   */
  edge?: Edge;
  /** The core's explanation, when rules were consulted. */
  explanation?: Explanation;
  /**
   * The deciding line is the one the 500 KiB limit cuts: its rule was read (and matched)
   * only in part, as Google reads it (see `RobotsTxt.cutLine`).
   */
  lineCut?: true;
  /**
   * The file is no robots.txt at all (an HTML page, UTF-16 text, binary data; see
   * `RobotsTxt.notRobotsTxt`): it has no rule, which is why the URL is allowed.
   */
  notRobotsTxt?: NotRobotsTxt;
}

/**
 * Why a redirect to the URL of `result` is not followed, in words, and whether asking again
 * later may change that (its robots.txt cannot be read now); undefined when it is allowed.
 */
export function redirectRefusal(
  result: CheckResult,
): { reason: string; retryLater: boolean } | undefined {
  if (result.allowed) return undefined;
  return readLater(result)
    ? {
        reason: `its robots.txt (${result.robotsUrl}) cannot be read now${result.error ? ` (${result.error})` : ''}`,
        retryLater: true,
      }
    : {
        reason: `its robots.txt disallows it${result.line ? ` (${result.robotsUrl} line ${result.line})` : ''}`,
        retryLater: false,
      };
}

/** The names a file's verdicts are made for (all of them when none has a group of its own). */
export function agentsFor(
  robots: RobotsTxt | undefined,
  agents: readonly string[],
  mode: AgentMode = 'fallback',
): readonly string[] {
  if (mode === 'merged' || !robots || agents.length < 2) return agents;
  for (const agent of agents) {
    if (robots.groupsFor(agent).scope === 'specific') return [agent];
  }
  return agents;
}

/** How `RobotsClient.verdict` makes a verdict from a state. */
export interface StateVerdictOptions {
  /** The names to match groups by. Default: the client's. */
  agents?: readonly string[];
  /** How the names were read (see `CheckResult.agentNotes`). Default: the client's. */
  agentNotes?: readonly string[];
  /** Include the explanation. Default false. */
  explain?: boolean;
  /** The file's verdict or explanation, when it was computed elsewhere (a worker thread). */
  computed?: Verdict | Explanation;
  /**
   * `url` is the request exactly as it is sent (a guard that sees the request line): judged
   * as it is, not as a client would rewrite it (see `requestedForm`). Default false.
   */
  exact?: boolean;
}

/**
 * A URL or path as it goes out (see `requestTarget`): `checked` is what verdicts are made on
 * first, `requestUrl` is set when it differs from what was given, and `others` are the other
 * forms the same request takes with some clients (an empty query), judged too: the request is
 * disallowed if any form is.
 */
export interface RequestForms {
  checked: string;
  requestUrl?: string;
  others?: readonly string[];
}

/**
 * The forms `given` (a URL, or a path: `/a/../b` is requested as its site's URL would be,
 * `/b`) goes out as. `exact`: `given` is the request as it is sent (a guard that sees the
 * request line), judged as it is, and as the WHATWG parser would write it where that differs,
 * for a server that normalises what it receives.
 */
export function requestedForm(given: string, exact = false): RequestForms {
  const path = given.charCodeAt(0) === 0x2f; // `startsWith` costs more than the check here
  const target = requestTarget(path ? `http://h${given}` : given);
  if (!target) return { checked: given };
  const checked = path ? target.path : target.url;
  if (exact) return checked === given ? { checked } : { checked: given, others: [checked] };
  const forms: RequestForms = target.changed ? { checked, requestUrl: checked } : { checked };
  const others = target.alternatives;
  if (others) forms.others = path ? others.map((url) => url.slice('http://h'.length)) : others;
  return forms;
}

/**
 * The verdict for a request that may go out as any of `forms`: `judge`'s for the checked
 * form, unless another form is disallowed; then that one's, with `target` naming it and
 * `requestUrl` the request judged where it is not the URL given. Fails closed: one disallowed
 * form is enough. The one loop every caller judges forms with.
 */
export function judgeForms<V extends { allowed: boolean }>(
  forms: RequestForms,
  judge: (target: string) => V,
): { verdict: V; target: string; requestUrl: string | undefined } {
  const first = judge(forms.checked);
  if (first.allowed && forms.others !== undefined) {
    for (const other of forms.others) {
      const found = judge(other);
      if (!found.allowed) return { verdict: found, target: other, requestUrl: other };
    }
  }
  return { verdict: first, target: forms.checked, requestUrl: forms.requestUrl };
}

/**
 * `fileVerdict` over every form a request goes out as (see `judgeForms`), with `requestUrl`
 * naming the form judged where it is not the URL given.
 */
export function formsVerdict(
  robots: RobotsTxt,
  forms: RequestForms,
  agents: readonly string[],
  explain = false,
  computed?: Verdict | Explanation,
): FileVerdict & { requestUrl?: string } {
  // `computed` is the checked form's (made on a worker); the other forms are judged here.
  const { verdict, requestUrl } = judgeForms(forms, (form) =>
    fileVerdict(robots, form, agents, explain, form === forms.checked ? computed : undefined),
  );
  // Set on the fresh verdict, not spread into a copy: this runs for every check.
  const result: FileVerdict & { requestUrl?: string } = verdict;
  if (requestUrl !== undefined) result.requestUrl = requestUrl;
  if (ignoresGlobalGroup(robots, agents)) {
    result.allowed = true;
    result.line = 0;
    result.reason = 'ignores-global-group';
    delete result.rule;
    delete result.lineCut;
  }
  return result;
}

/** What a file's rules say of one request target (see `fileVerdict`). */
export interface FileVerdict {
  allowed: boolean;
  line: number;
  reason: VerdictReason | IgnoresGlobalGroup;
  rule?: RuleMatch;
  /** The deciding line is the one the 500 KiB limit cuts (see `RobotsTxt.cutLine`). */
  lineCut?: true;
  /** The file is no robots.txt at all (see `CheckResult.notRobotsTxt`). */
  notRobotsTxt?: NotRobotsTxt;
  /** Everything that led to the verdict, when it was asked for. */
  explanation?: Explanation;
}

/**
 * What a parsed file's rules say of `target` (a URL or path as it will be requested) for
 * `agents`: the one place a file's answer becomes a verdict, for checks, the CLI, diffs and
 * Crawlee alike. The verdict with its deciding rule costs a fraction of an explanation
 * (which gathers every match, the groups and the ignored `*` rules), so the explanation is
 * made only when `explain` asks for it. `computed` is the verdict or explanation when it was
 * made elsewhere (a worker thread).
 */
export function fileVerdict(
  robots: RobotsTxt,
  target: string,
  agents: readonly string[],
  explain = false,
  computed: Verdict | Explanation = explain
    ? robots.explain(target, agents)
    : robots.verdict(target, agents, { withRule: true }),
): FileVerdict {
  const { allowed, line, reason, rule } = computed;
  const verdict: FileVerdict = { allowed, line, reason };
  if (rule) verdict.rule = rule;
  if (line > 0 && line === robots.cutLine) verdict.lineCut = true;
  // A body where no group applies may be a page served as robots.txt: say so (its first
  // bytes are looked at once per file).
  if (reason === 'no-matching-group') {
    const kind = robots.notRobotsTxt;
    if (kind) verdict.notRobotsTxt = kind;
  }
  if ('matches' in computed) verdict.explanation = computed;
  return verdict;
}

/**
 * The verdict for `url` (judged as it will be requested: see `requestTarget`) from a robots.txt state (as `RobotsClient.robotsFor` returns it), with
 * Google's rules for a fetch that brought no file: 4xx → no restrictions; server errors →
 * everything disallowed, or no restrictions once they have lasted `unreachableWindow`.
 */
export function verdictFromState(
  url: string,
  state: RobotsState,
  agents: readonly string[],
  options: {
    now?: number;
    unreachableWindow?: number;
    /** Include the explanation (see `fileVerdict`). */
    explain?: boolean;
    /** The file's verdict or explanation for `requestTarget(url).url`, when it was computed elsewhere (a worker thread). */
    computed?: Verdict | Explanation;
    /** How several names are read; default `fallback`. */
    agentMode?: AgentMode;
    /** `url` is the request as it is sent (see `requestedForm`'s `exact`). */
    exact?: boolean;
  } = {},
): CheckResult {
  const { entry, source, location } = state;
  const used = usedEntry(entry);
  agents = agentsFor(state.robots, agents, options.agentMode);
  const forms = requestedForm(url, options.exact);
  // Built field by field, in one shape, rather than by spreads: this runs for every check,
  // and spreads of optional parts made it the costliest step of a cached service check.
  const result: CheckResult = {
    url,
    agent: [...agents],
    allowed: true,
    robotsUrl: location.robotsUrl,
    source,
    status: used.status,
    line: 0,
    reason: 'no-robots-txt',
    fetchedAt: used.fetchedAt,
    expiresAt: entry.expiresAt,
  };
  if (entry.error) result.error = entry.error;
  if (entry.errorCode) result.errorCode = entry.errorCode;
  const edge = entry.edge;
  if (edge !== undefined) result.edge = edge;
  // A wall read literally says so where no line of a file decided.
  const literalWall = entry.edgeRead === 'literal' && source !== 'stale';
  if (state.robots) {
    const found = formsVerdict(state.robots, forms, agents, options.explain, options.computed);
    if (found.requestUrl !== undefined) result.requestUrl = found.requestUrl;
    result.allowed = found.allowed;
    result.line = found.line;
    result.reason = found.reason;
    if (found.rule) result.rule = found.rule;
    if (found.lineCut) result.lineCut = found.lineCut;
    if (found.notRobotsTxt) result.notRobotsTxt = found.notRobotsTxt;
    if (found.explanation) result.explanation = found.explanation;
    if (literalWall && found.line === 0) result.reason = 'robots-txt-challenge-literal';
    return result;
  }
  if (forms.requestUrl !== undefined) result.requestUrl = forms.requestUrl;
  if (used.outcome === 'not-found') {
    if (literalWall) result.reason = 'robots-txt-challenge-literal';
    return result;
  }
  if (used.edgeRead === 'unreachable') {
    // Never "unreachable too long, so allowed": a wall is not an outage that ends.
    result.allowed = false;
    result.reason = 'robots-txt-challenge';
    return result;
  }
  const now = options.now ?? Date.now();
  const window = options.unreachableWindow ?? DEFAULT_POLICY.unreachableWindow;
  if (literalWall) {
    result.allowed = now - (entry.errorSince ?? entry.fetchedAt) >= window;
    result.reason = 'robots-txt-challenge-literal';
  } else if (now - (entry.errorSince ?? entry.fetchedAt) >= window) {
    result.reason = 'robots-txt-unreachable-too-long';
  } else {
    result.allowed = false;
    result.reason = 'robots-txt-unreachable';
  }
  return result;
}

/** One version of the rules as repkit's tools hold it: a file's text parsed, or a fetch's state. */
export type HeldRobots =
  { kind: 'file'; robots: RobotsTxt } | { kind: 'fetched'; state: RobotsState };

/** A verdict from rules held (see `heldVerdict`): what a check answers of the rules. */
export interface HeldVerdict {
  allowed: boolean;
  line: number;
  rule?: RuleMatch;
  reason: CheckReason;
  /** The deciding line is cut by the 500 KiB limit (see `RobotsTxt.cutLine`). */
  lineCut?: true;
  /** The file is no robots.txt at all (see `RobotsTxt.notRobotsTxt`). */
  notRobotsTxt?: NotRobotsTxt;
  explanation?: Explanation;
  /** The names the verdict was made for (the first with a group of its own, see `agentsFor`). */
  agent: string[];
  /** The URL or path as it is requested, when that is not what was given. */
  requestUrl?: string;
}

/**
 * The verdict for `url` (a URL, or a path for a file) from rules held, `agents` read as
 * ordered fallbacks: a file's rules over every form the request goes out as, or a fetch's
 * state with Google's rules for a fetch that brought no file. `forms`: the URL's forms
 * (`requestedForm`), when they were made already.
 */
export function heldVerdict(
  held: HeldRobots,
  url: string,
  agents: readonly string[],
  options: { explain?: boolean; forms?: RequestForms } = {},
): HeldVerdict {
  const explain = options.explain === true;
  if (held.kind === 'fetched') return verdictFromState(url, held.state, agents, { explain });
  const agent = [...agentsFor(held.robots, agents)];
  const forms = options.forms ?? requestedForm(url);
  return { ...formsVerdict(held.robots, forms, agent, explain), agent };
}

/**
 * Judges URLs against one file for `agents` with the matcher's fast verdict, over every form
 * each request goes out as (see `judgeForms`): the verdict, the form that decided it, and
 * `requestUrl` where the request is not the URL given. For a file's many URLs (`repkit
 * batch`), where the fixed parts of an answer are made once.
 */
export function requestJudge(
  robots: RobotsTxt,
  agents: readonly string[],
): (url: string) => ReturnType<typeof judgeForms<Verdict>> {
  return (url) => judgeForms(requestedForm(url), (form) => robots.verdict(form, agents));
}
