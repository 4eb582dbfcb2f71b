import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import {
  DATABASE_FILE,
  DEFAULT_SCAN_AGENTS,
  PARQUET_TABLES,
  ScanDatabase,
  scan,
  type ScanProgress,
} from '../../scan/index.ts';
import type { Output } from '../output.ts';
import { CliError } from '../errors.ts';
import { fetchClient, fetchOptions, type EdgeOptions } from '../fetching.ts';
import { redisUrl } from '../endpoint.ts';
import { integer } from '../options.ts';

interface ScanOptions extends EdgeOptions {
  agents?: string;
  sites?: string[];
  workers?: number;
  redisUrl?: string[];
  scanName?: string;
  claimAfter?: number;
  merge?: boolean;
  userAgent: string;
  timeout: number;
  out: string;
  report?: string;
  json?: boolean;
}

/** The ready reports: `reports/NAME.sql` in the package. */
const REPORTS = fileURLToPath(new URL('../../../reports/', import.meta.url));

export function registerScan(program: Command, output: Output): void {
  fetchOptions(program.command('scan'))
    .description(
      "measure robots.txt captures (WARC files, files, directories) with Google's reading: a DuckDB database and Parquet files",
    )
    .argument('[inputs...]', 'WARC files (.warc, .warc.gz), robots.txt files, directories of them')
    .option(
      '--sites <file>',
      'a list of sites (one per line) whose robots.txt is fetched now; repeatable',
      (file: string, files: string[] = []) => [...files, file],
    )
    .option(
      '--agents <names>',
      'crawlers to judge each capture for, comma-separated (default: the known search and AI crawlers)',
    )
    .option(
      '--out <dir>',
      'where scan.duckdb, captures.parquet and agents.parquet go',
      'repkit-scan',
    )
    .option(
      '--workers <n>',
      "worker threads reading inputs side by side (default: the machine's cores; 0: none)",
      integer('--workers', 0, 256),
    )
    .option(
      '--redis-url <urls>',
      "share the scan through this Redis: one redis:// URL, or a cluster's nodes comma-separated",
      (value: string) => value.split(',').map((url) => redisUrl(url.trim())),
    )
    .option('--scan-name <name>', "the shared scan's name (its Redis keys)", 'repkit-scan')
    .option(
      '--claim-after <ms>',
      "take over a stopped process's input after this many ms without a sign of it",
      integer('--claim-after', 100, 86_400_000),
      60_000,
    )
    .option('--merge', 'combine the Parquet parts given (directories) into --out')
    .option('--report <name>', "print a ready report of the --out directory's scan (see below)")
    .option('--json', 'the report as one JSON object per row')
    .addHelpText(
      'after',
      `
Each capture (a WARC response record, a file) is read with the core: the status class and
file kind a crawler reads, directive counts, AI-use statements, sitemaps, and per crawler
whether a group names it and Google's verdict class (all, some, none) with the line deciding
/. An input finished is recorded in the database: a scan stopped and started again skips it.
Reports: ai-blocking, ai-use, named-vs-disallowed, status.

Many machines: start the same command on each, pointed at one Redis (--redis-url), each
with its own --out; the inputs given go to a Redis Stream once, and every process takes
inputs from it until none is left. An input whose process stops is taken over after
--claim-after. Then combine the parts: repkit scan --merge part-a part-b --out all.

Examples:
  $ repkit scan CC-MAIN-2026-44-robotstxt/*.warc.gz --out scan-2026-44
  $ repkit scan sites/ --agents GPTBot,ClaudeBot,Googlebot
  $ repkit scan --out scan-2026-44 --report ai-blocking
  $ repkit scan /mnt/cc/*.warc.gz --redis-url redis://10.0.0.5:6379 --out part-$(hostname)
  $ repkit scan --merge part-a part-b --out scan-2026-44

Exit status: 0 done, 1 an input ended early or held files it could not read (the
captures read kept), 2 usage or input error.`,
    )
    .action((inputs: string[], options: ScanOptions) => runScan(inputs, options, output));
}

/** `repkit scan`: the command's work, given its arguments and options as parsed. */
export async function runScan(
  inputs: readonly string[],
  options: ScanOptions,
  output: Output,
): Promise<void> {
  if (options.report !== undefined) return printReport(options, output);
  if (options.merge) return mergeParts(inputs, options, output);
  if (inputs.length === 0 && !options.sites?.length && !options.redisUrl) {
    throw new CliError('give inputs to scan (or --sites FILE, or --redis-url), or --report NAME');
  }
  const agents = options.agents
    ?.split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (agents && agents.length === 0) throw new CliError('--agents names no crawler');
  // Walls are read as Google reads their status (the scan measures what sites serve). A
  // shared scan's process may take another's list of sites, so it has a client too.
  const client =
    options.sites?.length || options.redisUrl
      ? fetchClient({ ...options, agent: [], profile: 'google', challenge: 'literal' })
      : undefined;
  let summary;
  try {
    summary = await scan(inputs, {
      out: options.out,
      agents: agents ?? DEFAULT_SCAN_AGENTS,
      ...(client ? { client } : {}),
      ...(options.sites ? { sites: options.sites } : {}),
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...(options.redisUrl
        ? {
            redisUrls: options.redisUrl,
            scanName: options.scanName ?? 'repkit-scan',
            claimAfterMs: options.claimAfter ?? 60_000,
          }
        : {}),
      onProgress: (p) => output.err(output.color.dim(progressLine(p))),
    });
  } finally {
    await client?.close();
  }
  for (const { input, error, captures } of summary.errors) {
    output.err(output.color.yellow(`${input}: ${error} (its ${captures} captures read are kept)`));
  }
  output.out(
    `${summary.captures} captures from ${summary.inputs - summary.skipped} inputs` +
      (summary.skipped ? ` (${summary.skipped} finished before, skipped)` : '') +
      (summary.claimed ? ` (${summary.claimed} taken over from a stopped process)` : '') +
      `; ${summary.files.join(', ')}`,
  );
  if (summary.errors.length > 0) process.exitCode = 1;
}

/** `scan: 3/10 inputs, 12,345 captures, 4,567/s, ETA 2m 10s`. */
export function progressLine(p: ScanProgress): string {
  const rate = p.elapsedMs > 0 ? Math.round((p.captures / p.elapsedMs) * 1000) : 0;
  const eta = p.etaMs === undefined ? '' : `, ETA ${duration(p.etaMs)}`;
  return `scan: ${p.inputsDone}/${p.inputs} inputs, ${p.captures.toLocaleString('en')} captures, ${rate.toLocaleString('en')}/s${eta}`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** `--merge`: each part directory's Parquet files into --out, each input once. */
async function mergeParts(parts: readonly string[], options: ScanOptions, output: Output) {
  if (parts.length === 0) throw new CliError('--merge needs the part directories to combine');
  // Every part checked before --out is made: a wrong one is named, and nothing is written.
  for (const part of parts) {
    const missing = PARQUET_TABLES.filter((t) => !existsSync(join(part, `${t}.parquet`)));
    if (missing.length > 0) {
      throw new CliError(
        `${part}: not a scan's Parquet part: it holds no ${missing.map((t) => `${t}.parquet`).join(', ')}`,
      );
    }
  }
  const database = await ScanDatabase.open(options.out);
  try {
    let added = 0;
    let held = 0;
    for (const part of parts) {
      const merged = await database.merge(part).catch((error: unknown) => {
        throw new CliError(`${part}: not a scan's Parquet part (${String(error)})`);
      });
      added += merged.added;
      held += merged.held;
    }
    const files = await database.exportParquet();
    output.out(
      `${added} inputs merged from ${parts.length} parts` +
        (held ? ` (${held} already held, left out)` : '') +
        `; ${files.join(', ')}`,
    );
  } finally {
    database.close();
  }
}

async function printReport(options: ScanOptions, output: Output): Promise<void> {
  const names = (await readdir(REPORTS))
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.slice(0, -4));
  if (!names.includes(options.report!)) {
    throw new CliError(`no report "${options.report}": ${names.sort().join(', ')}`);
  }
  // Opening makes a database: a mistyped --out answered an empty report, and left one there.
  if (!existsSync(join(options.out, DATABASE_FILE))) {
    throw new CliError(
      `no scan in ${options.out}: it holds no ${DATABASE_FILE} (repkit scan <inputs> --out ${options.out} makes one)`,
    );
  }
  const sql = await readFile(`${REPORTS}${options.report}.sql`, 'utf8');
  const database = await ScanDatabase.open(options.out);
  let rows: Record<string, unknown>[];
  try {
    rows = await database.query(sql);
  } finally {
    database.close();
  }
  if (options.json) {
    for (const row of rows) output.out(JSON.stringify(row));
    return;
  }
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  output.out(columns.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  for (const row of rows) {
    output.out(columns.map((c, i) => String(row[c]).padEnd(widths[i]!)).join('  '));
  }
}
