/**
 * One robots.txt capture measured as `repkit scan` reports it (issue #47's first layer): what
 * a crawler reads of the response (its status class, the file's kind, the 500 KiB cut), what
 * the file says (directive counts, AI-use statements, sitemaps), and, per crawler, whether a
 * group names it and Google's verdict class for the site. Every reading is the core's, so
 * the counts are Google's reading, not a naive parser's.
 */
import { classifyEdge, parse, type Edge, type Group, type RobotsTxt } from '../core/index.ts';
import { CRAWL_DELAY_KEYS, DEFAULT_MAX_BYTES } from '../core/internal.ts';

/** A capture: the robots.txt response as recorded (a WARC record, a file, a fetch). */
export interface Capture {
  /** The host it was fetched from. */
  host: string;
  /** The URL it was fetched from, when recorded (a WARC record's target). */
  url?: string;
  /** The input it was read from (a file, a list of sites), when read by `capturesOf`. */
  input?: string;
  /** When it was captured (ISO 8601), when known. */
  capturedAt?: string;
  /** The HTTP status; 200 for a file read from disk. */
  status: number;
  /** Response headers, names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** The body as served (decompressed). */
  body: Uint8Array;
  /** What stood in the file's place, when the fetch that made the capture already said. */
  edge?: Edge;
  /**
   * The redirects followed within the records from this URL: the status, headers and body
   * are then the response they reached (`end: 'answer'`); `no-file` is a chain a crawler
   * gives up on (more than five hops, a loop, a 3xx without `Location`), `not-recorded` a
   * target the records do not hold.
   */
  redirect?: { hops: number; url: string; end: 'answer' | 'no-file' | 'not-recorded' };
}

/**
 * How a crawler reads the response (the fetch guide's status table): `file` (2xx, parsed),
 * `no-file` (4xx but 429: everything allowed), `unreachable` (429, 5xx, no answer at all:
 * nothing for now),
 * `redirect` (a 3xx whose hops are not in the records), or what stood in the file's place:
 * `challenge` (a bot wall), `payment-required` (402), `html` (an HTML page at 2xx).
 */
export type StatusClass =
  'file' | 'no-file' | 'unreachable' | 'redirect' | 'challenge' | 'payment-required' | 'html';

/** What the body is: a robots.txt, or something served in its place. */
export type FileKind = 'robots-txt' | 'html' | 'utf-16' | 'binary' | 'empty';

/** One capture's row (Parquet columns: snake_case, stable). */
export interface CaptureRow {
  host: string;
  captured_at: string | null;
  /** The input the capture was read from. */
  input: string | null;
  status: number;
  status_class: StatusClass;
  /** Redirects followed within the records (0: none). */
  redirect_hops: number;
  /** Where they led (null: no redirect followed). */
  redirect_url: string | null;
  bytes: number;
  /** Longer than 500 KiB: Google reads the first 500 KiB only. */
  cut: boolean;
  kind: FileKind;
  groups: number;
  user_agent_lines: number;
  allow_rules: number;
  disallow_rules: number;
  sitemaps: number;
  crawl_delay_lines: number;
  content_usage_lines: number;
  /** Content-Signal lines inside groups. */
  content_signal_group_lines: number;
  /** Content-Signal lines before any User-agent (read for the whole file). */
  content_signal_file_lines: number;
  license_lines: number;
}

/**
 * Google's verdict class for a crawler: `all` (`/` and every rule's path, and the path under
 * it, disallowed), `none` (all of them allowed), `some` otherwise; `unknown` for a
 * redirect whose target is not in the records, or a file whose rule paths ran past
 * `MAX_CLASS_WORK` all judged alike.
 */
export type VerdictClass = 'all' | 'some' | 'none' | 'unknown';

/** One capture's row for one crawler. */
export interface AgentRow {
  host: string;
  /** As in `CaptureRow`. */
  input: string | null;
  agent: string;
  /** A group names the crawler (not only `*`). */
  named: boolean;
  verdict_class: VerdictClass;
  /** `/` allowed. */
  root_allowed: boolean;
  /** The line deciding `/` (0: no rule matched). */
  root_line: number;
}

/**
 * The capture's row and one row per agent. The verdicts are Google's reading of the status:
 * a 2xx body is parsed whatever it is (a wall's page or an HTML page has no rules, so
 * everything is allowed), a 4xx but 429 (a 402 or a 403 wall too) allows everything, a 429
 * or 5xx nothing for now (`all`, line 0).
 */
export function analyzeCapture(
  capture: Capture,
  agents: readonly string[],
): { capture: CaptureRow; agents: AgentRow[] } {
  const statusClass = classOf(capture);
  const { status } = capture;
  const parsed = status >= 200 && status < 300 ? parse(capture.body) : undefined;
  const row: CaptureRow = {
    host: capture.host,
    captured_at: capture.capturedAt ?? null,
    input: capture.input ?? null,
    status: capture.status,
    status_class: statusClass,
    redirect_hops: capture.redirect?.hops ?? 0,
    redirect_url: capture.redirect?.url ?? null,
    bytes: capture.body.length,
    cut: capture.body.length > DEFAULT_MAX_BYTES,
    kind: kindOf(capture.body, parsed ?? parse(capture.body.subarray(0, 4096))),
    ...counts(parsed),
  };
  // Crawlers the same groups apply to share a class: most fall to `*`, judged once.
  const classes = new Map<string, AgentClass>();
  return {
    capture: row,
    agents: agents.map((agent) => ({
      host: capture.host,
      input: row.input,
      agent,
      ...agentClass(agent, statusClass, parsed, classes),
    })),
  };
}

function classOf(capture: Capture): StatusClass {
  const { status, headers, body } = capture;
  const edge = capture.edge ?? classifyEdge({ status, headers, body });
  if (edge) return edge.kind;
  if (status === 0) return 'unreachable'; // no answer: DNS, connection, timeout
  if (status >= 200 && status < 300) return 'file';
  if (status >= 300 && status < 400) {
    // A chain given up on, or a 3xx with nowhere to go: no robots.txt, as a 4xx.
    const end = capture.redirect?.end;
    if (end === 'no-file' || (end === undefined && !headers['location'])) return 'no-file';
    return 'redirect';
  }
  if (status === 429 || status >= 500) return 'unreachable';
  return 'no-file';
}

function kindOf(body: Uint8Array, head: RobotsTxt): FileKind {
  if (body.length === 0) return 'empty';
  switch (head.notRobotsTxt) {
    case 'html-content':
      return 'html';
    case 'utf-16':
      return 'utf-16';
    case 'binary-content':
      return 'binary';
    default:
      return 'robots-txt';
  }
}

/** The columns that count directives. */
type DirectiveCounts = Omit<
  CaptureRow,
  | 'host'
  | 'captured_at'
  | 'input'
  | 'status'
  | 'status_class'
  | 'redirect_hops'
  | 'redirect_url'
  | 'bytes'
  | 'cut'
  | 'kind'
>;

function counts(robots: RobotsTxt | undefined): DirectiveCounts {
  const groups = robots?.groups ?? [];
  const rules = groups.flatMap((g) => g.rules);
  const extras = robots?.extras ?? [];
  const keyed = (key: string, fileLevel?: boolean) =>
    extras.filter(
      (e) => e.key === key && (fileLevel === undefined || (e.group === undefined) === fileLevel),
    ).length;
  return {
    groups: groups.length,
    user_agent_lines: groups.reduce((sum, g) => sum + g.agents.length, 0),
    allow_rules: rules.filter((r) => r.kind === 'allow').length,
    disallow_rules: rules.filter((r) => r.kind === 'disallow').length,
    sitemaps: robots?.sitemaps.length ?? 0,
    crawl_delay_lines: extras.filter((e) => CRAWL_DELAY_KEYS.has(e.key)).length,
    content_usage_lines: keyed('content-usage'),
    content_signal_group_lines: keyed('content-signal', false),
    content_signal_file_lines: keyed('content-signal', true),
    license_lines: robots?.licenses.length ?? 0,
  };
}

type AgentClass = Omit<AgentRow, 'host' | 'input' | 'agent'>;

function agentClass(
  agent: string,
  statusClass: StatusClass,
  robots: RobotsTxt | undefined,
  classes: Map<string, AgentClass>,
): AgentClass {
  if (!robots) {
    // Not parsed: what a crawler does on the status (a 4xx, a wall's 403, a 402: all allowed).
    const verdict_class =
      statusClass === 'redirect' ? 'unknown' : statusClass === 'unreachable' ? 'all' : 'none';
    return { named: false, verdict_class, root_allowed: verdict_class === 'none', root_line: 0 };
  }
  const { scope, groups } = robots.groupsFor(agent);
  const key = `${scope} ${groups.map((g) => g.agentLines[0]).join(',')}`;
  const known = classes.get(key);
  if (known) return known;
  const root = robots.verdict('/', agent);
  const verdict_class = verdictClassOf(robots, agent, root.allowed, groups);
  const judged = {
    named: scope === 'specific',
    verdict_class,
    root_allowed: root.allowed,
    root_line: root.line,
  };
  classes.set(key, judged);
  return judged;
}

/**
 * Checks (rule paths judged times the rules they are judged against) one crawler's class may
 * cost: a few milliseconds on any file, where judging every path of a hostile 500 KiB file
 * of 17,000 wildcard rules took half a minute. A class still undecided then is `unknown`.
 */
export const MAX_CLASS_WORK = 4_000_000;

/**
 * `all`, `some` or `none` from `/` and each distinct rule path of the groups, judged in file
 * order until both an allowed and a disallowed one are seen or the work runs out.
 */
function verdictClassOf(
  robots: RobotsTxt,
  agent: string,
  rootAllowed: boolean,
  groups: readonly Group[],
): VerdictClass {
  const rules = groups.reduce((sum, g) => sum + g.rules.length, 0);
  let allowed = rootAllowed;
  let disallowed = !rootAllowed;
  const judged = new Set<string>(['/']);
  let work = 0;
  for (const group of groups) {
    for (const rule of group.rules) {
      for (const path of probePaths(rule.value)) {
        if (allowed && disallowed) return 'some';
        if (judged.has(path)) continue;
        judged.add(path);
        work += rules;
        if (work > MAX_CLASS_WORK) return 'unknown';
        if (robots.isAllowed(path, agent)) allowed = true;
        else disallowed = true;
      }
    }
  }
  return allowed && disallowed ? 'some' : allowed ? 'none' : 'all';
}

/** The segment added below a rule's path to judge what lies under it. */
const BELOW = 'repkit-probe';

/**
 * The paths a rule is judged by: its witness, and (unless it ends in `$`) a path under it,
 * which a longer rule for the witness alone does not reach: `Allow: /$` with `Disallow: /`
 * lets `/` in and keeps `/repkit-probe` out.
 */
function probePaths(value: string): string[] {
  const path = witnessPath(value);
  if (value.endsWith('$')) return [path];
  return [path, path.endsWith('/') ? `${path}${BELOW}` : `${path}/${BELOW}`];
}

/** A path rule `value` matches: its `*` matching nothing, a final `$` the end. */
export function witnessPath(value: string): string {
  const plain = value.replaceAll('*', '');
  const path = plain.endsWith('$') ? plain.slice(0, -1) : plain;
  return path.startsWith('/') ? path : `/${path}`;
}
