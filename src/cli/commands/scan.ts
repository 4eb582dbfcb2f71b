import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { DEFAULT_SCAN_AGENTS, ScanDatabase, scan } from '../../scan/index.ts';
import type { Output } from '../output.ts';
import { CliError } from '../errors.ts';
import { fetchClient, fetchOptions, type EdgeOptions } from '../fetching.ts';

interface ScanOptions extends EdgeOptions {
  agents?: string;
  sites?: string[];
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

Examples:
  $ repkit scan CC-MAIN-2026-44-robotstxt/*.warc.gz --out scan-2026-44
  $ repkit scan sites/ --agents GPTBot,ClaudeBot,Googlebot
  $ repkit scan --out scan-2026-44 --report ai-blocking

Exit status: 0 done, 1 an input ended early (its captures before the error kept), 2 usage
or input error.`,
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
  if (inputs.length === 0 && !options.sites?.length) {
    throw new CliError('give inputs to scan (or --sites FILE), or --report NAME');
  }
  const agents = options.agents
    ?.split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (agents && agents.length === 0) throw new CliError('--agents names no crawler');
  // Walls are read as Google reads their status (the scan measures what sites serve).
  const client = options.sites?.length
    ? fetchClient({ ...options, agent: [], profile: 'google', challenge: 'literal' })
    : undefined;
  let summary;
  try {
    summary = await scan(inputs, {
      out: options.out,
      agents: agents ?? DEFAULT_SCAN_AGENTS,
      ...(client ? { client, sites: options.sites } : {}),
      onProgress: (p) => {
        const rate = p.elapsedMs > 0 ? Math.round((p.captures / p.elapsedMs) * 1000) : 0;
        output.err(
          output.color.dim(
            `scan: ${p.inputsDone}/${p.inputs} inputs, ${p.captures} captures, ${rate}/s`,
          ),
        );
      },
    });
  } finally {
    await client?.close();
  }
  for (const { input, error, captures } of summary.errors) {
    output.err(output.color.yellow(`${input}: ${error} (the ${captures} captures before it kept)`));
  }
  output.out(
    `${summary.captures} captures from ${summary.inputs - summary.skipped} inputs` +
      (summary.skipped ? ` (${summary.skipped} finished before, skipped)` : '') +
      `; ${summary.files.join(', ')}`,
  );
  if (summary.errors.length > 0) process.exitCode = 1;
}

async function printReport(options: ScanOptions, output: Output): Promise<void> {
  const names = (await readdir(REPORTS))
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.slice(0, -4));
  if (!names.includes(options.report!)) {
    throw new CliError(`no report "${options.report}": ${names.sort().join(', ')}`);
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
