import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { csvHeader, csvRow } from '../csv.ts';
import { Option } from '../toolkit.ts';
import { MemoryStore } from '../../cache/index.ts';
import { agentsFor, requestJudge } from '../../fetch/internal.ts';
import { ignoresGlobalGroup } from '../../core/internal.ts';
import { type RobotsClient } from '../../fetch/index.ts';
import { CliError } from '../errors.ts';
import { fetchClient } from '../fetching.ts';
import type { Output } from '../output.ts';
import { isUrl, loadRobots, verdictFrom, type LoadedRobots } from '../robots-source.ts';
import { robotsOptions, toRecord, type CheckOptions, type CheckRecord } from './check.ts';

interface BatchOptions extends CheckOptions {
  concurrency: number;
  stats?: boolean;
  format: 'jsonl' | 'csv';
}

export function registerBatch(program: Command, output: Output): void {
  robotsOptions(
    program
      .command('batch')
      .description('check many URLs from stdin; one JSON object per URL on stdout, in input order'),
    'robots.txt for every URL: a file, or a URL of the site (default: each URL’s own, fetched)',
    false,
  )
    .option('-c, --concurrency <n>', 'URLs in flight when fetching', (v) => positiveInt(v), 32)
    .addOption(
      new Option(
        '--format <format>',
        'jsonl (one check --json object per line) or csv (a header, then a row per URL)',
      )
        .choices(['jsonl', 'csv'])
        .default('jsonl'),
    )
    .option(
      '--stats',
      'at the end, one line on stderr: URLs, origins, robots.txt fetches, the cache and its evictions',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ repkit batch --agent Googlebot --robots robots.txt < urls.txt > verdicts.jsonl
  $ repkit batch --agent ExampleBot --concurrency 64 < urls.txt   (fetches each origin's robots.txt once)

Each line of stdin is a URL (a path starting with / too, with --robots); blank lines and lines
starting with # are skipped. Output lines are the objects of "check --json", one per URL line,
in input order (--format csv: a header, then a row per URL line: url, allowed, line, reason,
rule, requestUrl, agent, robotsUrl, status, source, error, errorCode; a cell a spreadsheet
would run as a formula starts with '); a line that is not a URL gets {"url", "error"} in its
place (and a line on stderr). A progress line goes to stderr on a terminal.
Exit status: 0 all allowed, 1 some URL disallowed, 2 some input line was not a URL.`,
    )
    .action((options) => runBatch(options, output));
}

/** `repkit batch`: the command's work, given its arguments and options as parsed. */
export async function runBatch(
  options: BatchOptions,
  output: Output,
  io: { input: Readable; stdout: Writable } = { input: process.stdin, stdout: process.stdout },
): Promise<void> {
  const { input } = io;
  const sink = new Sink(output, io.stdout, options.format);
  let invalid = 0;
  const reject: Reject = (lineNumber, line, why) => {
    invalid++;
    return { url: line, error: `stdin line ${lineNumber}: ${why}` };
  };
  try {
    if (options.robots) {
      await againstOne(await loadRobots(options.robots, options), options, sink, reject, input);
      if (options.stats) output.err(`repkit batch: ${sink.records} URLs against one robots.txt`);
    } else {
      // The default store, held here so that --stats can say what it kept and let go.
      const store = new MemoryStore();
      const fetched = new Set<string>();
      let fetches = 0;
      const client = fetchClient(options, {
        store,
        onFetch: (report) => {
          fetches++;
          fetched.add(report.robotsUrl);
        },
      });
      try {
        await byFetching(client, options, sink, reject, input);
      } finally {
        await client.close();
      }
      if (options.stats) {
        const { entries, bytes, evictions } = store.stats;
        output.err(
          `repkit batch: ${sink.records} URLs, ${fetched.size} origins, ${fetches} robots.txt fetches; cache ${entries} entries, ${(bytes / 2 ** 20).toFixed(1)} MiB, ${evictions} evicted while fresh`,
        );
      }
    }
  } finally {
    await sink.close();
  }
  process.exitCode = invalid > 0 ? 2 : sink.disallowed ? 1 : 0;
}

/** An input line that is not a URL: reported, and answered in its place. */
interface Rejected {
  url: string;
  error: string;
}

type Reject = (lineNumber: number, line: string, why: string) => Rejected;

/**
 * One robots.txt for every URL: the core's speed, no per-URL work beyond the check and one
 * output line, whose fixed parts (the agent, each rule's text by line) are made once.
 */
async function againstOne(
  loaded: LoadedRobots,
  options: BatchOptions,
  sink: Sink,
  reject: Reject,
  input: Readable,
): Promise<void> {
  // Several names are ordered fallbacks: for one file, the same name decides every URL.
  const agent = [...agentsFor(loaded.robots, options.agent)];
  if (
    (loaded.fetched && loaded.fetched.entry.outcome !== 'ok') ||
    options.format === 'csv' ||
    ignoresGlobalGroup(loaded.robots, agent)
  ) {
    // No file came back (404, server error), rows rather than JSON, or a crawler the matcher's
    // verdicts do not answer for (see `ignoresGlobalGroup`): the fetch layer's verdicts.
    for await (const urls of urlChunks(input, reject, true)) {
      for (const url of urls) {
        if (typeof url !== 'string') await sink.rejected(url);
        else await sink.record(toRecord(url, agent, verdictFrom(loaded, url, agent)));
      }
    }
    return;
  }
  const tail = `,"agent":${JSON.stringify(agent)}}`;
  // The deciding rule as JSON (as `check --json` has it), made once per line. Allow rules
  // with an index.html alias are asked for each time: the line alone does not say whether
  // the rule or its alias matched.
  const ruleJson = new Map<number, string>();
  const aliasLines = new Set<number>();
  for (const group of loaded.robots.groups) {
    for (const rule of group.rules) {
      if (rule.kind === 'allow' && rule.pattern.includes('/index.htm')) aliasLines.add(rule.line);
    }
  }
  const ruleFor = (url: string, line: number): string => {
    let json = ruleJson.get(line);
    if (json === undefined) {
      const rule = loaded.robots.verdict(url, agent, { withRule: true }).rule;
      json = rule ? `,"rule":${JSON.stringify(rule)}` : '';
      if (!aliasLines.has(line)) ruleJson.set(line, json);
    }
    return json;
  };
  const judge = requestJudge(loaded.robots, agent);
  // The fields `fileVerdict` adds where they apply, as `check --json` has them.
  const cutLine = loaded.robots.cutLine;
  const notRobotsTxt = loaded.robots.notRobotsTxt;
  const notRobotsTxtJson = notRobotsTxt ? `,"notRobotsTxt":${JSON.stringify(notRobotsTxt)}` : '';
  for await (const urls of urlChunks(input, reject, true)) {
    for (const url of urls) {
      if (typeof url !== 'string') {
        await sink.rejected(url);
        continue;
      }
      // Judged as it will be requested (`/a/../b` is requested as `/b`).
      // Every form the request may go out as (an empty query): disallowed if any is.
      const { verdict, target, requestUrl } = judge(url);
      const { allowed, line, reason } = verdict;
      const rule = line > 0 ? ruleFor(target, line) : '';
      const requested = requestUrl ? `,"requestUrl":${JSON.stringify(requestUrl)}` : '';
      const cut = line > 0 && line === cutLine ? ',"lineCut":true' : '';
      const page = reason === 'no-matching-group' ? notRobotsTxtJson : '';
      const json = `{"url":${JSON.stringify(url)}${requested},"allowed":${allowed},"line":${line}${rule},"reason":"${reason}"${cut}${page}${tail}`;
      const drained = sink.line(allowed, json);
      if (drained) await drained;
    }
  }
}

/**
 * Each URL's own robots.txt, fetched once per origin through the cache, with `concurrency`
 * URLs in flight and the output in input order.
 */
async function byFetching(
  client: RobotsClient,
  options: BatchOptions,
  sink: Sink,
  reject: Reject,
  input: Readable,
): Promise<void> {
  const window: Promise<CheckRecord | Rejected>[] = [];
  const check = async (url: string): Promise<CheckRecord> => {
    try {
      const result = await client.check(url);
      return toRecord(url, options.agent, result, result);
    } catch (error) {
      // A URL with no robots.txt (another scheme): disallowed, with the reason.
      return {
        url,
        allowed: false,
        line: 0,
        reason: 'robots-txt-unreachable',
        agent: options.agent,
        error: (error as Error).message,
      };
    }
  };
  for await (const urls of urlChunks(input, reject, false)) {
    for (const url of urls) {
      window.push(typeof url === 'string' ? check(url) : Promise.resolve(url));
      if (window.length >= options.concurrency) await sink.either(await window.shift()!);
    }
  }
  while (window.length > 0) await sink.either(await window.shift()!);
}

/** The longest input line read (longer lines are rejected, not held: memory stays bounded). */
export const MAX_LINE_CHARS = 65_536;

/**
 * The URLs of stdin a chunk at a time (checks run synchronously within a chunk, keeping the
 * per-URL overhead to the check itself); blank and # lines skipped, other non-URLs rejected.
 * Each chunk is searched for line breaks once: a line spread over many chunks costs its
 * length, and one longer than MAX_LINE_CHARS is rejected without being kept.
 */
async function* urlChunks(
  input: Readable,
  reject: Reject,
  pathsOk: boolean,
): AsyncGenerator<(string | Rejected)[]> {
  input.setEncoding('utf8');
  let lineNumber = 0;
  /** The line being read: its pieces so far, their length, and whether it is too long. */
  let pieces: string[] = [];
  let length = 0;
  let tooLong = false;
  const finish = (urls: (string | Rejected)[]): void => {
    lineNumber++;
    if (tooLong) {
      urls.push(
        reject(
          lineNumber,
          `${pieces.join('').slice(0, 80)}…`,
          `longer than ${MAX_LINE_CHARS.toLocaleString('en')} characters`,
        ),
      );
    } else {
      const line = pieces.join('').trim();
      if (line !== '' && !line.startsWith('#')) {
        if ((pathsOk && line.startsWith('/')) || isUrl(line)) urls.push(line);
        else
          urls.push(
            reject(lineNumber, line, pathsOk ? 'not a URL or a path' : 'not an absolute URL'),
          );
      }
    }
    pieces = [];
    length = 0;
    tooLong = false;
  };
  const add = (piece: string): void => {
    if (tooLong) return;
    if (length + piece.length > MAX_LINE_CHARS) {
      // Kept: the start, to show in the error. The rest of the line is dropped as it comes.
      pieces.push(piece.slice(0, Math.max(0, 80 - length)));
      tooLong = true;
      return;
    }
    pieces.push(piece);
    length += piece.length;
  };
  for await (const chunk of input as AsyncIterable<string>) {
    const urls: (string | Rejected)[] = [];
    let start = 0;
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
      add(chunk.slice(start, end));
      finish(urls);
      start = end + 1;
    }
    if (start < chunk.length) add(chunk.slice(start));
    yield urls;
  }
  if (length > 0 || tooLong) {
    const urls: (string | Rejected)[] = [];
    finish(urls);
    yield urls;
  }
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`--concurrency must be a positive integer, got "${value}"`);
  return n;
}

/**
 * Where output lines go: buffered into large writes that respect backpressure, with a
 * progress line ("12,345 URLs  4,321/s") on stderr when it is a terminal.
 */
class Sink {
  disallowed = false;
  private buffer: string[] = [];
  private size = 0;
  private count = 0;
  /** When the progress line was drawn last; -Infinity: it is not on screen, draw it next line. */
  private lastDraw = -Infinity;
  private readonly start = performance.now();

  constructor(
    private readonly output: Output,
    /** Where the records go: written in chunks, past the per-line output. */
    private readonly stdout: Writable,
    private readonly format: 'jsonl' | 'csv' = 'jsonl',
  ) {
    if (format === 'csv') output.out(csvHeader());
  }

  /** Output lines so far, one per input URL line. */
  get records(): number {
    return this.count;
  }

  record(record: CheckRecord): Promise<void> | void {
    return this.line(
      record.allowed,
      this.format === 'csv' ? csvRow(record) : JSON.stringify(record),
    );
  }

  /** An input line that was not a URL: answered in its place, and said on stderr then. */
  rejected(rejected: Rejected): Promise<void> | void {
    this.warn(`repkit: ${rejected.error}: "${rejected.url}"`);
    return this.line(true, this.format === 'csv' ? csvRow(rejected) : JSON.stringify(rejected));
  }

  either(record: CheckRecord | Rejected): Promise<void> | void {
    return 'allowed' in record ? this.record(record) : this.rejected(record);
  }

  /** A line on stderr, on a line of its own even while the progress line is drawn. */
  warn(message: string): void {
    if (this.output.errIsTTY && this.lastDraw > -Infinity) {
      process.stderr.write(`\r${' '.repeat(40)}\r`);
    }
    this.output.err(message);
    this.lastDraw = -Infinity;
  }

  /** Adds a serialized record; returns a promise only when stdout must drain first. */
  line(allowed: boolean, json: string): Promise<void> | void {
    this.disallowed ||= !allowed;
    this.buffer.push(json);
    this.size += json.length + 1;
    this.count++;
    if (this.output.errIsTTY) this.drawProgress();
    if (this.size >= 64 * 1024) return this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.output.errIsTTY && this.count > 0) {
      process.stderr.write(`\r${this.count.toLocaleString('en')} URLs done${' '.repeat(16)}\n`);
    }
  }

  private flush(): Promise<void> | void {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('\n') + '\n';
    this.buffer = [];
    this.size = 0;
    if (!this.stdout.write(chunk)) {
      return new Promise<void>((done) => this.stdout.once('drain', () => done()));
    }
  }

  private drawProgress(): void {
    const now = performance.now();
    // At most ten draws a second, the first at the first line: the throttle was counted
    // from the process's start, so a quick start drew nothing for its first lines.
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    // A rate once there is time enough to tell one (the first draw comes at once).
    const elapsed = now - this.start;
    const rate =
      elapsed < 500 ? '' : ` ${Math.round(this.count / (elapsed / 1000)).toLocaleString('en')}/s `;
    process.stderr.write(`\r${this.count.toLocaleString('en')} URLs ${rate}`);
  }
}
