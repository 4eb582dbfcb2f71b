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
  status: number;
  status_class: StatusClass;
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
 * Google's verdict class for a crawler: `all` (`/` and every rule's path disallowed), `none`
 * (nothing disallowed: `/` and every rule's path allowed), `some` otherwise; `unknown` for a
 * redirect whose target is not in the records, or a file whose rule paths ran past
 * `MAX_CLASS_WORK` all judged alike.
 */
export type VerdictClass = 'all' | 'some' | 'none' | 'unknown';

/** One capture's row for one crawler. */
export interface AgentRow {
  host: string;
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
    status: capture.status,
    status_class: statusClass,
    bytes: capture.body.length,
    cut: capture.body.length > DEFAULT_MAX_BYTES,
    kind: kindOf(capture.body, parsed ?? parse(capture.body.subarray(0, 4096))),
    ...counts(parsed),
  };
  // Crawlers the same groups apply to share a class: most fall to `*`, judged once.
  const classes = new Map<string, Omit<AgentRow, 'host' | 'agent'>>();
  return {
    capture: row,
    agents: agents.map((agent) => agentRow(capture.host, agent, status, parsed, classes)),
  };
}

function classOf(capture: Capture): StatusClass {
  const { status, headers, body } = capture;
  const edge = capture.edge ?? classifyEdge({ status, headers, body });
  if (edge) return edge.kind;
  if (status === 0) return 'unreachable'; // no answer: DNS, connection, timeout
  if (status >= 200 && status < 300) return 'file';
  if (status >= 300 && status < 400) return 'redirect';
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

function counts(
  robots: RobotsTxt | undefined,
): Omit<CaptureRow, 'host' | 'captured_at' | 'status' | 'status_class' | 'bytes' | 'cut' | 'kind'> {
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

function agentRow(
  host: string,
  agent: string,
  status: number,
  robots: RobotsTxt | undefined,
  classes: Map<string, Omit<AgentRow, 'host' | 'agent'>>,
): AgentRow {
  if (!robots) {
    const allowed = status >= 400 && status < 500 && status !== 429;
    const redirect = status >= 300 && status < 400;
    return {
      host,
      agent,
      named: false,
      verdict_class: redirect ? 'unknown' : allowed ? 'none' : 'all',
      root_allowed: allowed,
      root_line: 0,
    };
  }
  const { scope, groups } = robots.groupsFor(agent);
  const key = `${scope} ${groups.map((g) => g.agentLines[0]).join(',')}`;
  const known = classes.get(key);
  if (known) return { host, agent, ...known };
  const root = robots.verdict('/', agent);
  const rules = groups.reduce((sum, g) => sum + g.rules.length, 0);
  const verdict_class = verdictClassOf(robots, agent, root.allowed, groups, rules);
  const judged = {
    named: scope === 'specific',
    verdict_class,
    root_allowed: root.allowed,
    root_line: root.line,
  };
  classes.set(key, judged);
  return { host, agent, ...judged };
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
  rules: number,
): VerdictClass {
  let allowed = rootAllowed;
  let disallowed = !rootAllowed;
  const judged = new Set<string>(['/']);
  let work = 0;
  for (const group of groups) {
    for (const rule of group.rules) {
      if (allowed && disallowed) return 'some';
      const path = witnessPath(rule.value);
      if (judged.has(path)) continue;
      judged.add(path);
      work += rules;
      if (work > MAX_CLASS_WORK) return 'unknown';
      if (robots.isAllowed(path, agent)) allowed = true;
      else disallowed = true;
    }
  }
  return allowed && disallowed ? 'some' : allowed ? 'none' : 'all';
}

/** A path rule `value` matches: its `*` matching nothing, a final `$` the end. */
export function witnessPath(value: string): string {
  const plain = value.replaceAll('*', '');
  const path = plain.endsWith('$') ? plain.slice(0, -1) : plain;
  return path.startsWith('/') ? path : `/${path}`;
}
