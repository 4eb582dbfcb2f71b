/**
 * The service's CPU-heavy work, run in worker threads (see pool.ts) so that the event loop,
 * `/healthz` and cached checks stay responsive while it runs, and a deadline can end it.
 * Each export is one task; its argument and result cross the thread boundary by structured
 * clone, so both are plain data.
 */
import {
  lint as lintBody,
  parse,
  type Explanation,
  type LintReport,
  type NotRobotsTxt,
  type ProfileName,
  type RobotsTxt,
  type Verdict,
} from '../../core/index.ts';
import { BoundedMap, ignoresGlobalGroup } from '../../core/internal.ts';
import type { CheckReason } from '../../fetch/index.ts';
import { agentsFor, readNames, RobotsComparison } from '../../fetch/internal.ts';

type VerdictChange = ReturnType<RobotsComparison['changes']>[number];
type ChangeGroup = ReturnType<RobotsComparison['groups']>[number];

export interface ExplainTask {
  robots: string;
  url: string;
  agent: string | string[];
  profile: ProfileName;
}

/**
 * The CLI's explain on a body given: names read as everywhere (a version or a header as its
 * token, `A,B` as ordered fallbacks: the first with a group of its own decides), and the
 * names the verdict was made for in `agent`, as `repkit explain --json` gives them.
 */
export function explain(task: ExplainTask): ExplainAnswer {
  const robots = parse(task.robots, { profile: task.profile });
  const agent = [...agentsFor(robots, readNames(task.agent).agents)];
  const explanation = robots.explain(task.url, agent);
  // As every verdict says it (see `IgnoresGlobalGroup`); the * group's matches stay listed.
  if (ignoresGlobalGroup(robots, agent)) {
    const { rule: _rule, ...rest } = explanation;
    return { ...rest, allowed: true, line: 0, reason: 'ignores-global-group', agent };
  }
  // What a check's verdict says beside it (see `fileVerdict`): the deciding line cut by the
  // size limit, and a body that is no robots.txt at all (why no group applies).
  const answer: ExplainAnswer = { ...explanation, agent };
  if (explanation.line > 0 && explanation.line === robots.cutLine) answer.lineCut = true;
  if (explanation.reason === 'no-matching-group') {
    const kind = robots.notRobotsTxt;
    if (kind) answer.notRobotsTxt = kind;
  }
  return answer;
}

/** `/v1/explain`'s answer: the explanation, the names it was made for, and what a verdict adds. */
export type ExplainAnswer = Omit<Explanation, 'reason'> & {
  reason: CheckReason;
  agent: string[];
  lineCut?: true;
  notRobotsTxt?: NotRobotsTxt;
};

/** A body's lint: text, or bytes as fetched. */
export function lint(task: { robots: string | Uint8Array }): LintReport {
  return lintBody(task.robots);
}

export interface DiffTask {
  old: string;
  new: string;
  /** Default: `/` and paths from both bodies' rules, as the CLI's diff takes (`probePaths`). */
  urls?: string[];
  /** Default: every crawler either body names, and `*`. */
  agents?: string[];
  profile: ProfileName;
  /** Most verdicts the request may ask for (URLs × crawlers × 2 files). */
  maxVerdicts: number;
  /** Most bytes of changes listed (as JSON); past them, a summary (see `DiffAnswer`). */
  maxAnswerBytes: number;
}

export type DiffAnswer =
  | {
      changes: VerdictChange[];
      agents: string[];
      checked: number;
      /** Without `urls`: how many paths from the bodies' rules were compared. */
      probed?: number;
      /**
       * The answer stays within `maxBytes` of JSON: `total` changes were found, `listed` (as
       * many as fit in three quarters of the bytes) are in `changes`, and `summary` has them
       * grouped by crawler and deciding lines (as the CLI's `--summary`, without the rules'
       * text), as many groups as fit in the last quarter.
       */
      truncated?: { total: number; listed: number; maxBytes: number; summary: ChangeGroup[] };
    }
  /** The request would ask for more verdicts than the budget allows. */
  | { tooMuch: { urls: number; agents: number } };

/** The CLI's diff (see `RobotsComparison`), on two bodies given. */
export function diff(task: DiffTask): DiffAnswer {
  const before = parse(task.old, { profile: task.profile });
  const after = parse(task.new, { profile: task.profile });
  const comparison = new RobotsComparison(
    { kind: 'file', robots: before },
    { kind: 'file', robots: after },
    { ...(task.urls ? { urls: task.urls } : {}), ...(task.agents ? { agents: task.agents } : {}) },
  );
  const { urls, agents, checked } = comparison;
  if (checked * 2 > task.maxVerdicts) {
    return { tooMuch: { urls: urls.length, agents: agents.length } };
  }
  const changes = comparison.changes();
  // Each change carries its rules' text: a small request can ask for a vast answer (a
  // 500 KiB file's long rules, repeated per URL and crawler), so it is bounded by bytes.
  const max = task.maxAnswerBytes;
  let listed = withinBytes(changes, max);
  // Cut: three quarters of the bytes for the changes listed, one for the summary.
  if (listed.length < changes.length)
    listed = listed.slice(0, withinBytes(listed, max * 0.75).length);
  const result: DiffAnswer = {
    changes: listed,
    agents: [...agents],
    checked,
    ...(task.urls ? {} : { probed: urls.length }),
  };
  if (listed.length < changes.length) {
    // Groups name their deciding lines, without the rules' text (the bodies have it).
    const groups = comparison.groups(changes).map(({ before: was, after: now, ...group }) => ({
      ...group,
      before: { allowed: was.allowed, line: was.line, reason: was.reason },
      after: { allowed: now.allowed, line: now.line, reason: now.reason },
    }));
    const summary = withinBytes(groups, max / 4);
    result.truncated = {
      total: changes.length,
      listed: listed.length,
      maxBytes: task.maxAnswerBytes,
      summary,
    };
  }
  return result;
}

/** The first of `items` whose JSON fits in `maxBytes` (characters, as sent in UTF-8 or less). */
function withinBytes<T>(items: readonly T[], maxBytes: number): T[] {
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (bytes > maxBytes) return items.slice(0, i);
  }
  return items as T[];
}

export interface ChecksTask {
  /** Names this body (origin and fetch time): a worker parses each body once. */
  key: string;
  body: Uint8Array;
  profile: ProfileName;
  maxBytes: number;
  urls: string[];
  agents: string[];
  /** Explanations (every rule that matched, the groups chosen) instead of verdicts. */
  explain?: boolean;
}

/** Parsed bodies this worker keeps (each up to the 500 KiB limit). */
const KEPT = 4;
const parsed = new BoundedMap<string, RobotsTxt>({ maxEntries: KEPT });

/**
 * Verdicts, with their deciding rules (or explanations), for URLs against one large fetched
 * robots.txt.
 */
export function checks(task: ChecksTask): (Verdict | Explanation)[] {
  let robots = parsed.get(task.key);
  if (!robots) {
    robots = parse(task.body, { profile: task.profile, maxBytes: task.maxBytes });
    parsed.set(task.key, robots);
  }
  const found = robots;
  return task.urls.map((url) =>
    task.explain
      ? found.explain(url, task.agents)
      : found.verdict(url, task.agents, { withRule: true }),
  );
}
