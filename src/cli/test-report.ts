/**
 * What `repkit test` found, for machines: JUnit XML (a test suite per spec, a test case per
 * expectation) and GitHub Actions annotations on the spec's lines.
 */
import { isAbsolute, relative, sep } from 'node:path';
import { workflowText } from './github.ts';
import { isUrl } from './robots-source.ts';

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
  /** How long judging it took, when measured. */
  seconds?: number;
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

/**
 * A path as the report names it: relative to the working directory (the checkout), never the
 * machine's absolute path; a URL as it is.
 */
function reported(path: string): string {
  if (isUrl(path) || !isAbsolute(path)) return path;
  return relative(process.cwd(), path).split(sep).join('/') || '.';
}

/** Seconds as JUnit readers take them. */
const time = (seconds: number) => seconds.toFixed(6);

/**
 * A JUnit XML report (the testsuites / testsuite / testcase / failure form CI systems read),
 * each case with the `file`, `line` and `time` attributes the common reporters annotate with.
 */
export function junitXml(runs: readonly SpecRun[]): string {
  const total = runs.reduce((n, r) => n + r.outcomes.length, 0);
  const failures = runs.reduce((n, r) => n + r.outcomes.filter((o) => !o.passed).length, 0);
  let allSeconds = 0;
  const suites = runs.map((run) => {
    const spec = reported(run.spec);
    const failed = run.outcomes.filter((o) => !o.passed).length;
    let seconds = 0;
    const cases = run.outcomes.map((o) => {
      seconds += o.seconds ?? 0;
      const timed = o.seconds === undefined ? '' : ` time="${time(o.seconds)}"`;
      const head = `    <testcase classname="${xml(spec)}" name="${xml(`line ${o.line}: ${o.name}`)}" file="${xml(spec)}" line="${o.line}"${timed}`;
      if (o.passed) return `${head}/>`;
      const message = `expected ${o.expected}, the file says ${o.actual} (${o.decidedBy})`;
      return `${head}>\n      <failure message="${xml(message)}" type="expectation">${xml(`${spec}:${o.line}: ${o.name}: ${message}`)}</failure>\n    </testcase>`;
    });
    allSeconds += seconds;
    return `  <testsuite name="${xml(`${spec} (${reported(run.robots)})`)}" tests="${run.outcomes.length}" failures="${failed}" errors="0" skipped="0" time="${time(seconds)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="repkit test" tests="${total}" failures="${failures}" errors="0" time="${time(allSeconds)}">\n${suites.join('\n')}\n</testsuites>\n`;
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
