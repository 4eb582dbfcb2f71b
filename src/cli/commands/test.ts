import { existsSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Command } from 'commander';
import { makeDirectories } from '../../scan/index.ts';
import { CliError } from '../errors.ts';
import { MAX_TEXT_BYTES, readSmallText } from '../files.ts';
import { fetchOptions, type EdgeOptions } from '../fetching.ts';
import { oneLine, type Output } from '../output.ts';
import { describeFetch, isUrl, loadRobots, type LoadedRobots } from '../robots-source.ts';
import { parseSpec, type Spec } from '../spec.ts';
import { initialSpec } from '../spec-init.ts';
import { githubAnnotations, junitXml, type SpecRun } from '../test-report.ts';
import { runSpec } from '../test-run.ts';
import { stringify } from '../toolkit.ts';
import { liveRun } from '../test-live.ts';

interface TestOptions extends EdgeOptions {
  robots?: string;
  json?: boolean;
  junit?: string;
  init?: boolean;
  live?: string;
  userAgent: string;
  timeout: number;
}

const DEFAULT_SPEC = 'robots.test.yaml';

export function registerTest(program: Command, output: Output): void {
  fetchOptions(program.command('test'))
    .description('check a robots.txt against the expectations of spec files (for CI)')
    .argument('[spec...]', `spec files (YAML or JSON; default ${DEFAULT_SPEC})`)
    .option('-r, --robots <file|url>', "the robots.txt to test (overrides the spec's robots)")
    .option('--json', 'one JSON object per spec, per line')
    .option('--junit <file>', 'also write a JUnit XML report to this file')
    .option('--init', `write a starter spec (${DEFAULT_SPEC}) pinning what --robots does today`)
    .option(
      '--live <site>',
      "judge the site's served robots.txt by the same expectations, and say how it differs from the committed one",
    )
    .addHelpText(
      'after',
      `
Examples:
  $ repkit test --init --robots public/robots.txt
  $ repkit test
  $ repkit test robots.test.yaml --junit reports/robots.xml
  $ repkit test --live https://example.com   (after a deploy: is the served file the committed one?)

A spec names the file under test (robots: a file relative to the spec, or a site URL), a base
for paths (site) and the expectations (expect: agent, allow, disallow, usage). Under
GITHUB_ACTIONS=true each failure is also an annotation on its spec line.
Exit status: 0 every expectation holds, 1 some fail, 2 a spec or input error (with the spec's
file and line).`,
    )
    .action((files, options) => runTest(files, options, output));
}

/** `repkit test`: the command's work, given its arguments and options as parsed. */
export async function runTest(
  files: string[],
  options: TestOptions,
  output: Output,
): Promise<void> {
  if (options.init) return init(files[0] ?? DEFAULT_SPEC, options, output);
  const runs: SpecRun[] = [];
  for (const file of files.length > 0 ? files : [DEFAULT_SPEC]) {
    const spec = await readSpec(file);
    const committed = await robotsFor(spec, options);
    if (!options.live) {
      runs.push(runSpec(spec, committed));
      continue;
    }
    // The served file, judged by the same expectations, and how it differs.
    const live = await liveRun(spec, committed, options.live, options);
    runs.push(live.run);
    if (!options.json) for (const line of live.report) output.out(oneLine(line));
  }
  for (const run of runs) report(output, run, options.json === true);
  if (options.junit) {
    try {
      // The report's folder is made as needed (`reports/robots.xml` in a fresh checkout).
      await makeDirectories(dirname(resolve(options.junit)));
      await writeFile(options.junit, junitXml(runs));
    } catch (error) {
      throw new CliError(`cannot write ${options.junit}: ${(error as Error).message}`);
    }
  }
  if (process.env.GITHUB_ACTIONS === 'true') {
    for (const line of githubAnnotations(runs)) process.stdout.write(`${line}\n`);
  }
  if (runs.some((run) => run.outcomes.some((o) => !o.passed))) process.exitCode = 1;
}

async function readSpec(file: string): Promise<Spec> {
  const hint =
    file === DEFAULT_SPEC && !existsSync(file)
      ? ' (write one with repkit test --init --robots <file>)'
      : '';
  return parseSpec(file, readSmallText(file, MAX_TEXT_BYTES, hint));
}

/** The robots.txt a spec tests: --robots, else its own `robots` (a file relative to it). */
async function robotsFor(spec: Spec, options: TestOptions): Promise<LoadedRobots> {
  const given = options.robots ?? spec.robots?.value;
  if (!given)
    throw new CliError(`${spec.file}:1: no robots to test (give robots: in the spec, or --robots)`);
  const source =
    options.robots || isUrl(given) || isAbsolute(given)
      ? given
      : resolve(dirname(spec.file), given);
  const loaded = await loadRobots(source, { ...options, profile: 'google' });
  const state = loaded.fetched;
  if (state && state.entry.outcome === 'error' && !state.entry.lastGood) {
    throw new CliError(`${loaded.label}: ${describeFetch(state)}; nothing to test`);
  }
  return loaded;
}

function report(output: Output, run: SpecRun, json: boolean): void {
  const failed = run.outcomes.filter((o) => !o.passed);
  if (json) {
    output.out(
      JSON.stringify({
        ...run,
        passed: run.outcomes.length - failed.length,
        failed: failed.length,
      }),
    );
    return;
  }
  const { color } = output;
  // One line each, whatever the spec's values hold.
  output.out(
    oneLine(`${run.spec} (${run.robots})`) +
      `: ${failed.length === 0 ? color.green(`all ${run.outcomes.length} hold`) : color.red(`${failed.length} of ${run.outcomes.length} fail`)}`,
  );
  for (const o of failed) {
    output.out(
      `${oneLine(run.spec)}:${o.line}  ${color.red('fail')}  ${oneLine(`${o.name}: expected ${o.expected}, the file says ${o.actual} (${o.decidedBy})`)}`,
    );
  }
}

/** `--init`: a spec pinning what the file does today. */
async function init(file: string, options: TestOptions, output: Output): Promise<void> {
  if (!options.robots)
    throw new CliError('--init needs --robots <file|url>: the file whose behaviour to pin');
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (exists)
    throw new CliError(`${file} exists: not overwritten (remove it, or name another file)`);
  const loaded = await loadRobots(options.robots, { ...options, profile: 'google' });
  const spec = initialSpec(loaded, options.robots);
  await writeFile(
    file,
    `# Written by repkit test --init: what ${loaded.label} does today.\n${stringify(spec)}`,
  );
  output.out(`wrote ${file}: ${spec.expect.length} crawler(s), from ${loaded.label}`);
}
