/**
 * A spec's expectations judged against a loaded robots.txt: each URL as `check` judges it,
 * each usage preference as the file states it (whether or not the URL may be fetched).
 */
import { decideUsage, describeSource, robotsTxtStatements } from '../core/internal.ts';
import { verdictFrom, type LoadedRobots } from './robots-source.ts';
import type { Spec } from './spec.ts';
import type { Outcome, SpecRun } from './test-report.ts';

/** Every expectation of a spec, judged against `loaded`. */
export function runSpec(spec: Spec, loaded: LoadedRobots): SpecRun {
  const origin = loaded.fetched?.location.origin;
  const base = spec.site ?? origin;
  const full = (url: string) => (url.startsWith('/') && base ? `${base}${url}` : url);
  const outcomes: Outcome[] = [];
  for (const e of spec.urls) {
    const start = performance.now();
    const verdict = verdictFrom(loaded, full(e.url), e.agents);
    const actual = verdict.allowed ? 'allowed' : 'disallowed';
    const decidedBy = verdict.rule
      ? `line ${verdict.line}: ${verdict.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.value}`
      : verdict.reason;
    outcomes.push({
      line: e.line,
      name: `${e.agents.join(',')} ${e.url}`,
      passed: actual === e.expect,
      expected: e.expect,
      actual,
      decidedBy,
      seconds: (performance.now() - start) / 1000,
    });
  }
  for (const u of spec.usage) {
    for (const url of u.urls) {
      const start = performance.now();
      // What the file states, whether or not the URL may be fetched.
      const said = robotsTxtStatements(loaded.robots, full(url), u.agents)[u.label];
      const decision = decideUsage(said, true);
      outcomes.push({
        line: u.line,
        name: `${u.agents.join(',')} ${url} ${u.label}`,
        passed: decision.preference === u.expect,
        expected: `${u.label} ${u.expect}`,
        actual: `${u.label} ${decision.preference}`,
        decidedBy:
          decision.statements.map((s) => describeSource(s.source)).join('; ') || 'nothing stated',
        seconds: (performance.now() - start) / 1000,
      });
    }
  }
  return { spec: spec.file, robots: loaded.label, outcomes };
}
