/**
 * `repkit scan`: inputs (WARC files, files, directories, lists of sites) read capture by
 * capture, each capture measured (`analyzeCapture`) and written to the scan's database.
 * Inputs are read side by side on worker threads (one input a task); a list of sites is
 * read beside the client that fetches it. Each input's rows are one transaction with its
 * `inputs` mark, so a scan stopped and started again skips what it finished. The inputs come
 * from this process's arguments, or from a Redis Stream many processes share
 * (`redisUrls`); the tables are exported as Parquet at the end.
 */
import { availableParallelism } from 'node:os';
import { KNOWN_AGENTS } from '../core/agents-entry.ts';
import { InvalidOptionError, type RobotsClient } from '../fetch/index.ts';
import { ScanDatabase } from './database.ts';
import { inputsOf, sitesInputs, type ScanInput } from './inputs.ts';
import { measureInput, type Measured, type MeasuredBatch } from './measure.ts';
import { MeasurePool } from './measure-pool.ts';
import { LocalQueue, type InputQueue, type Lease } from './queue.ts';
import { RedisQueue } from './redis-queue.ts';

/** The crawlers asked about by default: the known search and AI crawlers repkit documents. */
export const DEFAULT_SCAN_AGENTS: readonly string[] = KNOWN_AGENTS.filter(
  (a) =>
    a.source === 'repkit' &&
    !a.userTriggered &&
    ['search', 'ai-training', 'ai-search', 'ai-assistant'].includes(a.purpose),
).map((a) => a.name);

/** How `scan` runs. */
export interface ScanOptions {
  /** The output directory: `scan.duckdb` and a Parquet file per table. */
  out: string;
  /** The crawlers each capture is judged for. @default DEFAULT_SCAN_AGENTS */
  agents?: readonly string[];
  /** Fetches the sites of a list (`sites`); without it a list of sites is an error. */
  client?: RobotsClient;
  /** Lists of sites to fetch (one site per line), besides the inputs. */
  sites?: readonly string[];
  /**
   * Worker threads reading inputs side by side; 0 reads them on the calling thread.
   * @default the machine's available parallelism
   */
  workers?: number;
  /**
   * Share the scan with other processes through this Redis (one URL; several: nodes of a
   * cluster): the inputs go to its stream, and this process reads what it takes from there.
   */
  redisUrls?: readonly string[];
  /** The shared scan's name (its Redis keys). @default 'repkit-scan' */
  scanName?: string;
  /** How long a stopped process's input waits before another takes it over. @default 60_000 */
  claimAfterMs?: number;
  /** Told at most once a second, and after each input: what is done so far. */
  onProgress?: (progress: ScanProgress) => void;
}

/** How far a scan is. */
export interface ScanProgress {
  /** Inputs finished by this process, and of all it knows of (a shared scan: those it took). */
  inputsDone: number;
  inputs: number;
  /** Captures read in this run. */
  captures: number;
  /** Since this run started, ms. */
  elapsedMs: number;
  /** Time left at the pace so far, ms; undefined until known (never, for a shared scan). */
  etaMs: number | undefined;
}

/** What a scan did. */
export interface ScanSummary {
  inputs: number;
  /** Inputs an earlier run had finished: not read again. */
  skipped: number;
  /** Inputs taken over from a process that stopped (a shared scan). */
  claimed: number;
  captures: number;
  /** The Parquet files written. */
  files: string[];
  /** Inputs that ended early (a truncated or corrupt file): the captures read before stand. */
  errors: { input: string; error: string; captures: number }[];
}

/**
 * Scans `paths` into `options.out`; see the module comment.
 * @throws InvalidOptionError for lists of sites without a client, a list of sites that
 * cannot be read (`sites`), or an `out` that cannot be made a directory.
 * @throws InvalidInputError (`paths`) for an input that cannot be read. Both before anything
 * is read or written.
 */
export async function scan(paths: readonly string[], options: ScanOptions): Promise<ScanSummary> {
  if (options.sites?.length && !options.client) {
    throw new InvalidOptionError('client', 'a list of sites needs a client to fetch them');
  }
  const given = [...(await inputsOf(paths)), ...(await sitesInputs(options.sites ?? []))];
  const agents = options.agents ?? DEFAULT_SCAN_AGENTS;
  const database = await ScanDatabase.open(options.out);
  const workers = options.workers ?? availableParallelism();
  const pool = workers > 0 ? new MeasurePool(workers) : undefined;
  let queue: InputQueue | undefined;
  try {
    await database.crawlers(agents.map(crawlerRow));
    const finished = await database.finishedInputs();
    const fresh = given.filter((input) => !finished.has(input.path));
    const shared = options.redisUrls?.length
      ? await RedisQueue.open({
          urls: options.redisUrls,
          ...(options.scanName ? { name: options.scanName } : {}),
          ...(options.claimAfterMs ? { claimAfterMs: options.claimAfterMs } : {}),
        })
      : undefined;
    if (shared) await shared.add(fresh);
    queue = shared ?? new LocalQueue(fresh);
    const progress = new Progress(shared ? undefined : fresh, options.onProgress);
    const summary: ScanSummary = {
      inputs: given.length,
      skipped: given.length - fresh.length,
      claimed: 0,
      captures: 0,
      files: [],
      errors: [],
    };
    const read = async (lease: Lease) => {
      const session = await database.beginInput();
      let measured: Measured;
      try {
        const take = async (batch: MeasuredBatch) => {
          for (const rows of batch.rows) await session.add(rows.capture, rows.agents);
          progress.read(lease.input, batch);
        };
        const { input } = lease;
        measured =
          pool && input.kind !== 'sites'
            ? await pool.measure(input, agents, take)
            : await measureInput(input, agents, take, options.client);
        await session.finish(input.path, measured.captures, measured.error);
      } catch (error) {
        session.abandon();
        await lease.release();
        throw error;
      }
      await lease.done();
      summary.captures += measured.captures;
      if (lease.claimed) summary.claimed++;
      if (measured.error) {
        summary.errors.push({
          input: lease.input.path,
          error: measured.error,
          captures: measured.captures,
        });
      }
      progress.finished(lease.input);
    };
    // `workers` readers (one for the calling thread), each taking the next input when done.
    await readAll(queue, Math.max(1, workers), read);
    // A shared scan's inputs are those this process took, and those it had finished before.
    if (shared) summary.inputs = progress.taken + summary.skipped;
    summary.files = await database.exportParquet();
    return summary;
  } finally {
    await queue?.close();
    await pool?.close();
    database.close();
  }
}

/**
 * `readers` loops, each taking the next input when done. A failure (the database, a worker
 * lost) stops every reader taking more, then is thrown.
 */
async function readAll(
  queue: InputQueue,
  readers: number,
  read: (lease: Lease) => Promise<void>,
): Promise<void> {
  let failure: { error: unknown } | undefined;
  const failed = (error: unknown) => void (failure ??= { error });
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (!failure) {
        const lease = await queue.next().catch(failed);
        if (!lease) return;
        await read(lease).catch(failed);
      }
    }),
  );
  if (failure) throw failure.error;
}

function crawlerRow(name: string) {
  const known = KNOWN_AGENTS.find((a) => a.name.toLowerCase() === name.toLowerCase());
  return { name, owner: known?.owner ?? '', purpose: known?.purpose ?? '' };
}

/** Captures and bytes read, and the pace: told to `onProgress` at most once a second. */
class Progress {
  readonly #started = performance.now();
  readonly #total: number | undefined;
  readonly #inputs: number;
  readonly #position = new Map<string, number>();
  readonly #report: ((progress: ScanProgress) => void) | undefined;
  #bytesDone = 0;
  #captures = 0;
  #done = 0;
  #last = -Infinity;
  taken = 0;

  /** `inputs`: all there are to read, when known (not for a shared scan). */
  constructor(inputs: readonly ScanInput[] | undefined, report?: (p: ScanProgress) => void) {
    this.#total = inputs?.reduce((sum, input) => sum + input.bytes, 0);
    this.#inputs = inputs?.length ?? 0;
    this.#report = report;
  }

  read(input: ScanInput, batch: MeasuredBatch): void {
    if (!this.#position.has(input.path)) this.taken++;
    this.#position.set(input.path, batch.position);
    this.#captures += batch.rows.length;
    if (performance.now() - this.#last >= 1_000) this.#tell();
  }

  finished(input: ScanInput): void {
    if (!this.#position.has(input.path)) this.taken++;
    this.#position.delete(input.path);
    this.#bytesDone += input.bytes;
    this.#done++;
    this.#tell();
  }

  #tell(): void {
    if (!this.#report) return;
    this.#last = performance.now();
    const elapsedMs = this.#last - this.#started;
    let read = this.#bytesDone;
    for (const position of this.#position.values()) read += position;
    const etaMs =
      this.#total !== undefined && read > 0 && elapsedMs > 0
        ? (elapsedMs * Math.max(0, this.#total - read)) / read
        : undefined;
    this.#report({
      inputsDone: this.#done,
      inputs: this.#total === undefined ? this.taken : this.#inputs,
      captures: this.#captures,
      elapsedMs,
      etaMs,
    });
  }
}
