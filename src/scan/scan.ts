/**
 * `repkit scan` on one machine: each input (a WARC file, a file, a directory) read capture
 * by capture, each capture measured (`analyzeCapture`) and written to the scan's database;
 * an input finished is recorded, so a scan stopped and started again skips it; the tables
 * exported as Parquet at the end. Memory is one capture at a time (bodies read to 1 MiB).
 */
import { resolve } from 'node:path';
import { KNOWN_AGENTS } from '../core/agents-entry.ts';
import { analyzeCapture } from './analyze.ts';
import type { RobotsClient } from '../fetch/index.ts';
import { ScanDatabase } from './database.ts';
import { capturesOf, inputsOf } from './inputs.ts';

/** The crawlers asked about by default: the known search and AI crawlers repkit documents. */
export const DEFAULT_SCAN_AGENTS: readonly string[] = KNOWN_AGENTS.filter(
  (a) =>
    a.source === 'repkit' &&
    !a.userTriggered &&
    ['search', 'ai-training', 'ai-search', 'ai-assistant'].includes(a.purpose),
).map((a) => a.name);

/** How `scan` runs. */
export interface ScanOptions {
  /** The output directory: `scan.duckdb`, `captures.parquet`, `agents.parquet`. */
  out: string;
  /** The crawlers each capture is judged for. @default DEFAULT_SCAN_AGENTS */
  agents?: readonly string[];
  /** Fetches the sites of a list (`sites`); without it a list of sites is an error. */
  client?: RobotsClient;
  /** Lists of sites to fetch (one site per line), besides the inputs. */
  sites?: readonly string[];
  /** Told after each input and every 1,000 captures: what is done so far. */
  onProgress?: (progress: ScanProgress) => void;
}

/** How far a scan is. */
export interface ScanProgress {
  /** The input being read. */
  input: string;
  /** Inputs finished, of all given (those an earlier run finished included). */
  inputsDone: number;
  inputs: number;
  /** Captures read in this run. */
  captures: number;
  /** Since this run started, ms. */
  elapsedMs: number;
}

/** What a scan did. */
export interface ScanSummary {
  inputs: number;
  /** Inputs an earlier run had finished: not read again. */
  skipped: number;
  captures: number;
  /** The Parquet files written. */
  files: string[];
  /** Inputs that ended early (a truncated or corrupt file): the captures read before stand. */
  errors: { input: string; error: string; captures: number }[];
}

/** Scans `paths` into `options.out`; see the module comment. */
export async function scan(paths: readonly string[], options: ScanOptions): Promise<ScanSummary> {
  const inputs = [
    ...(await inputsOf(paths)),
    ...(options.sites ?? []).map((path) => ({ kind: 'sites' as const, path: resolve(path) })),
  ];
  const agents = options.agents ?? DEFAULT_SCAN_AGENTS;
  const database = await ScanDatabase.open(options.out);
  try {
    await database.crawlers(
      agents.map((name) => {
        const known = KNOWN_AGENTS.find((a) => a.name.toLowerCase() === name.toLowerCase());
        return { name, owner: known?.owner ?? '', purpose: known?.purpose ?? '' };
      }),
    );
    const finished = await database.finishedInputs();
    const started = performance.now();
    let captures = 0;
    let skipped = 0;
    const errors: ScanSummary['errors'] = [];
    let done = 0;
    const progress = (input: string) =>
      options.onProgress?.({
        input,
        inputsDone: done,
        inputs: inputs.length,
        captures,
        elapsedMs: performance.now() - started,
      });
    for (const input of inputs) {
      const key = input.path;
      if (finished.has(key)) {
        skipped++;
        done++;
        continue;
      }
      let inInput = 0;
      let error: string | undefined;
      await database.beginInput();
      try {
        for await (const capture of capturesOf(input, options.client)) {
          const rows = analyzeCapture(capture, agents);
          await database.add(rows.capture, rows.agents);
          captures++;
          inInput++;
          if (captures % 1_000 === 0) progress(key);
        }
      } catch (caught) {
        // A truncated or corrupt file: what was read before stands, the rest is said.
        error = caught instanceof Error ? caught.message : String(caught);
        errors.push({ input: key, error, captures: inInput });
      }
      await database.finishInput(key, inInput, error);
      done++;
      progress(key);
    }
    const files = await database.exportParquet();
    return { inputs: inputs.length, skipped, captures, files, errors };
  } finally {
    database.close();
  }
}
