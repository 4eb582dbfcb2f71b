/**
 * What `repkit test` found, for machines: JUnit XML (a test suite per spec, a test case per
 * expectation) and GitHub Actions annotations on the spec's lines.
 */
import { workflowText } from './github.ts';

/** One expectation, judged. */
export interface Outcome {
  /** The spec line that states it. */
  line: number;
  /** `Googlebot /cart`, `GPTBot / train-ai`. */
  name: string;
  passed: boolean;
  expected: string;
  actual: string;
  /** The line that decides, or why nothing does. */
  decidedBy: string;
}

export interface SpecRun {
  spec: string;
  /** The robots.txt tested: its path, or its URL. */
  robots: string;
  outcomes: Outcome[];
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Whether XML 1.0 allows the character (tab, line breaks and the printable range). */
function xmlAllows(code: number): boolean {
  return (
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d ||
    (code >= 0x20 && code !== 0xfffe && code !== 0xffff)
  );
}

/** Text as XML character data or an attribute value (characters XML 1.0 forbids dropped). */
function xml(text: string): string {
  let kept = '';
  for (const c of text) if (xmlAllows(c.charCodeAt(0))) kept += c;
  return kept.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** A JUnit XML report (the testsuites / testsuite / testcase / failure form CI systems read). */
export function junitXml(runs: readonly SpecRun[]): string {
  const total = runs.reduce((n, r) => n + r.outcomes.length, 0);
  const failures = runs.reduce((n, r) => n + r.outcomes.filter((o) => !o.passed).length, 0);
  const suites = runs.map((run) => {
    const failed = run.outcomes.filter((o) => !o.passed).length;
    const cases = run.outcomes.map((o) => {
      // The spec line goes in the name: the JUnit schema has no file or line attribute.
      const head = `    <testcase classname="${xml(run.spec)}" name="${xml(`line ${o.line}: ${o.name}`)}"`;
      if (o.passed) return `${head}/>`;
      const message = `expected ${o.expected}, the file says ${o.actual} (${o.decidedBy})`;
      return `${head}>\n      <failure message="${xml(message)}" type="expectation">${xml(`${run.spec}:${o.line}: ${o.name}: ${message}`)}</failure>\n    </testcase>`;
    });
    return `  <testsuite name="${xml(`${run.spec} (${run.robots})`)}" tests="${run.outcomes.length}" failures="${failed}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="repkit test" tests="${total}" failures="${failures}" errors="0">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** `::error file=…,line=…::…` for each failure: annotations on the spec in a pull request. */
export function githubAnnotations(runs: readonly SpecRun[]): string[] {
  return runs.flatMap((run) =>
    run.outcomes
      .filter((o) => !o.passed)
      .map(
        (o) =>
          `::error file=${workflowText(run.spec, true)},line=${o.line},title=${workflowText('robots.txt expectation', true)}::${workflowText(`${o.name}: expected ${o.expected}, the file says ${o.actual} (${o.decidedBy})`)}`,
      ),
  );
}
