/**
 * Which URLs change verdict between two versions of a robots.txt, per crawler: the one diff
 * the CLI (`repkit diff`) and the service (`POST /v1/diff`) both answer with, so that they
 * agree on every rule: URLs judged as they will be requested, `*` as any crawler without a
 * group of its own, a fetch that brought no file read as Google reads it.
 */
import {
  productToken,
  type Group,
  type NotRobotsTxt,
  type RobotsTxt,
  type RuleMatch,
} from '../../core/index.ts';
import { isGlobalAgent } from '../../core/internal.ts';
import {
  heldVerdict,
  requestedForm,
  type CheckReason,
  type HeldRobots,
  type RequestForms,
} from './verdict.ts';

/** The name compared for "any crawler without a group of its own": matches no product token. */
const ANY_OTHER_AGENT = '*';

/** One side's verdict in a change. */
export interface SideVerdict {
  allowed: boolean;
  /** The deciding line (0 for none). */
  line: number;
  reason: CheckReason;
  rule?: RuleMatch;
  /** The deciding line is cut by the 500 KiB limit (as a check's verdict says). */
  lineCut?: true;
  /** That version is no robots.txt at all (an HTML page...): why no group applies. */
  notRobotsTxt?: NotRobotsTxt;
}

/** A URL whose verdict differs between the two versions, for one crawler. */
export interface VerdictChange {
  url: string;
  /** The URL or path as it is requested, when that is not what was given. */
  requestUrl?: string;
  agent: string;
  before: SideVerdict;
  after: SideVerdict;
}

/** Every crawler either version has a group for (its product token as written), then `*`. */
function namedAgents(...files: readonly RobotsTxt[]): string[] {
  const names = new Map<string, string>();
  for (const file of files) {
    for (const group of file.groups) {
      for (const value of group.agents) {
        const token = isGlobalAgent(value) ? '' : productToken(value);
        if (token !== '' && !names.has(token.toLowerCase())) names.set(token.toLowerCase(), token);
      }
    }
  }
  return [...names.values(), ANY_OTHER_AGENT];
}

/** Most probe paths `probePaths` gives: two per rule of files of a few thousand rules. */
const MAX_PROBES = 10_000;

/**
 * Paths to compare two versions on when no URLs are given: `/`, and for every rule of
 * either version its path and a path below it (see `addRuleProbes`), so that every rule that
 * changed is met by a path it matches and one it may not. At most `MAX_PROBES`, in file
 * order, without repeats.
 */
function probePaths(...sides: readonly HeldRobots[]): string[] {
  const paths = new Set<string>(['/']);
  for (const side of sides) addRuleProbes(robotsOf(side)?.groups ?? [], paths, MAX_PROBES);
  return [...paths];
}

/** The parsed file a side holds: none where its fetch brought no file. */
function robotsOf(side: HeldRobots): RobotsTxt | undefined {
  return side.kind === 'file' ? side.robots : side.state.robots;
}

/**
 * Adds to `paths`, while it holds fewer than `limit`, each rule's path and a path below it:
 * each `*` read as `x` and a final `$` dropped (`Disallow: /*.css$` gives `/x.css` and
 * `/x.cssx`). The probes `diff` compares and `repkit test --init` pins.
 */
function addRuleProbes(groups: readonly Group[], paths: Set<string>, limit: number): void {
  for (const group of groups) {
    for (const { value } of group.rules) {
      if (value === '') continue;
      const plain = value.replaceAll('*', 'x').replace(/\$$/, '');
      const path = plain.startsWith('/') ? plain : `/${plain}`;
      for (const probe of [path, `${path}x`]) {
        if (paths.size >= limit) return;
        paths.add(probe);
      }
    }
  }
}

/** Changes grouped by crawler and by the rules that decided them before and after. */
export interface ChangeGroup {
  agent: string;
  before: SideVerdict;
  after: SideVerdict;
  /** How many URLs changed this way. */
  count: number;
  /** The first of them, as given. */
  example: string;
}

/** `changes` grouped (see `ChangeGroup`), crawlers in the order met, most URLs first within. */
function groupChanges(changes: readonly VerdictChange[]): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  for (const change of changes) {
    const key = `${change.agent}\n${change.before.line}:${change.before.allowed}\n${change.after.line}:${change.after.allowed}`;
    const group = groups.get(key);
    if (group) group.count++;
    else {
      const { agent, before, after, url } = change;
      groups.set(key, { agent, before, after, count: 1, example: url });
    }
  }
  const order = new Map<string, number>();
  for (const group of groups.values())
    if (!order.has(group.agent)) order.set(group.agent, order.size);
  return [...groups.values()].sort(
    (a, b) => order.get(a.agent)! - order.get(b.agent)! || b.count - a.count,
  );
}

function sideVerdict(
  side: HeldRobots,
  url: string,
  forms: RequestForms,
  names: readonly string[],
): SideVerdict & { requestUrl?: string } {
  const verdict = heldVerdict(side, url, names, { forms });
  const { allowed, line, reason, rule, lineCut, notRobotsTxt, requestUrl } = verdict;
  return {
    allowed,
    line,
    reason,
    ...(rule ? { rule } : {}),
    ...(lineCut ? { lineCut } : {}),
    ...(notRobotsTxt ? { notRobotsTxt } : {}),
    ...(requestUrl ? { requestUrl } : {}),
  };
}

/**
 * Two versions of a robots.txt compared, per crawler: the one diff the CLI and the service
 * answer with. Made with the URLs to compare (default: `/` and, for every rule of either
 * version, its path and a path below it, at most 10,000) and the crawlers (default: every
 * crawler either version names, then `*`, any crawler without a group of its own).
 */
export class RobotsComparison {
  /** The URLs or paths compared. */
  readonly urls: readonly string[];
  /** The crawlers compared, in order (`*`: any crawler without a group of its own). */
  readonly agents: readonly string[];
  /** No URLs were given: the paths are probes of the rules (`cut`: the most were taken). */
  readonly probed: boolean;
  readonly cut: boolean;

  constructor(
    readonly before: HeldRobots,
    readonly after: HeldRobots,
    options: { urls?: readonly string[]; agents?: readonly string[] } = {},
  ) {
    this.urls = options.urls ?? probePaths(before, after);
    this.probed = options.urls === undefined;
    this.cut = this.probed && this.urls.length >= MAX_PROBES;
    this.agents =
      options.agents ?? namedAgents(...[before, after].flatMap((side) => robotsOf(side) ?? []));
  }

  /** Verdict pairs compared: URLs × crawlers. */
  get checked(): number {
    return this.urls.length * this.agents.length;
  }

  /** The URLs whose verdict changes, crawler by crawler in order. */
  changes(): VerdictChange[] {
    const { urls, before, after } = this;
    const forms = urls.map((url) => requestedForm(url));
    const changes: VerdictChange[] = [];
    for (const agent of this.agents) {
      const names = agent === ANY_OTHER_AGENT ? [] : [agent];
      forms.forEach((form, i) => {
        const { requestUrl: wasAs, ...was } = sideVerdict(before, urls[i]!, form, names);
        const { requestUrl: nowAs, ...now } = sideVerdict(after, urls[i]!, form, names);
        if (was.allowed === now.allowed) return;
        // The form that decided the disallowing side (an empty query may go out either way).
        const requestUrl = (was.allowed ? nowAs : wasAs) ?? form.requestUrl;
        changes.push({
          url: urls[i]!,
          ...(requestUrl ? { requestUrl } : {}),
          agent,
          before: was,
          after: now,
        });
      });
    }
    return changes;
  }

  /** `changes` grouped by crawler and the rules that decided them (see `ChangeGroup`). */
  groups(changes: readonly VerdictChange[]): ChangeGroup[] {
    return groupChanges(changes);
  }
}

/**
 * For each crawler a file names (and `*`), the names its verdicts are asked with and `/` with
 * the probes of the rules of the groups that apply to it, at most `perAgent` paths: what
 * `repkit test --init` pins.
 */
export function probesByAgent(
  robots: RobotsTxt,
  perAgent: number,
): { agent: string; names: string[]; paths: string[] }[] {
  return namedAgents(robots).map((agent) => {
    // `*` asks for any crawler without a group: a name no group has.
    const names = agent === ANY_OTHER_AGENT ? [] : [agent];
    const paths = new Set(['/']);
    addRuleProbes(robots.groupsFor(names[0] ?? '').groups, paths, perAgent);
    return { agent, names, paths: [...paths] };
  });
}
