/**
 * `repkit test --live <site>`: after a deploy, the robots.txt the site serves is judged by the
 * same expectations as the committed file, and compared with it: the lines added and
 * removed, and the expectations whose verdict the difference changes. A served file that
 * is no robots.txt (a page, a challenge), a 4xx or an unreachable one is its own failure:
 * crawlers would read it as no rules, or as everything disallowed.
 */
import type { EdgeOptions } from './fetching.ts';
import { describeFetch, loadRobots, type LoadedRobots } from './robots-source.ts';
import { runSpec } from './test-run.ts';
import type { Spec } from './spec.ts';
import type { SpecRun } from './test-report.ts';

/** Lines of the report, at most, that list added or removed lines. */
const SHOWN_LINES = 20;

export async function liveRun(
  spec: Spec,
  committed: LoadedRobots,
  site: string,
  options: { userAgent: string; timeout: number } & EdgeOptions,
): Promise<{ run: SpecRun; report: string[] }> {
  const served = await loadRobots(site, { ...options, profile: 'google' });
  const state = served.fetched!;
  const problem =
    state.entry.outcome !== 'ok'
      ? `the served robots.txt is ${describeFetch(state)}: ${state.entry.outcome === 'not-found' ? 'crawlers read that as no rules at all' : 'crawlers crawl nothing while it lasts'}`
      : served.robots.notRobotsTxt
        ? `the served robots.txt is no robots.txt (${served.robots.notRobotsTxt}: a page or a challenge): crawlers find no rule in it`
        : undefined;
  const run = runSpec(spec, served);
  run.robots = `served: ${served.label}`;
  if (problem) {
    run.outcomes.unshift({
      line: 1,
      name: `served ${served.label}`,
      passed: false,
      expected: 'the robots.txt that was committed',
      actual: problem,
      decidedBy: site,
    });
  }
  const report: string[] = [];
  const added = linesOnlyIn(served.bytes, committed.bytes);
  const removed = linesOnlyIn(committed.bytes, served.bytes);
  if (added.length + removed.length === 0) {
    report.push(`${spec.file}: the served file is the committed one (${committed.label})`);
  } else {
    report.push(
      `${spec.file}: the served file differs from ${committed.label}: ${added.length} line(s) added, ${removed.length} removed`,
    );
    for (const [sign, lines] of [
      ['+', added],
      ['-', removed],
    ] as const) {
      for (const { line, text } of lines.slice(0, SHOWN_LINES))
        report.push(`  ${sign} line ${line}: ${text}`);
      if (lines.length > SHOWN_LINES) report.push(`  ${sign} … ${lines.length - SHOWN_LINES} more`);
    }
  }
  // The expectations whose verdict the served file changes.
  const before = runSpec(spec, committed).outcomes;
  for (const now of run.outcomes) {
    const was = before.find((o) => o.line === now.line && o.name === now.name);
    if (was && was.actual !== now.actual) {
      report.push(
        `  ${spec.file}:${now.line} ${now.name}: ${was.actual} in the committed file, ${now.actual} as served`,
      );
    }
  }
  return { run, report };
}

/** The lines of `a` (numbered as in `a`) that `b` does not have as many times. */
function linesOnlyIn(a: Uint8Array, b: Uint8Array): { line: number; text: string }[] {
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).split(/\r\n|\r|\n/);
  const left = decode(a);
  const counts = new Map<string, number>();
  for (const text of decode(b)) counts.set(text, (counts.get(text) ?? 0) + 1);
  const only: { line: number; text: string }[] = [];
  left.forEach((text, i) => {
    const n = counts.get(text) ?? 0;
    if (n > 0) counts.set(text, n - 1);
    else if (text.trim() !== '') only.push({ line: i + 1, text });
  });
  return only;
}
