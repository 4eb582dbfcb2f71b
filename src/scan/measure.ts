/**
 * One input measured: its captures read (`capturesOf`), each measured (`analyzeCapture`),
 * handed out in batches. `take` is awaited before reading on, so an input of any size holds
 * at most the batches its taker keeps (`BATCH_CAPTURES` captures' rows each; the worker
 * threads keep two) besides the capture read.
 * Runs in a worker thread (measure-worker.ts) or, for a list of sites, beside the client.
 */
import type { RobotsClient } from '../fetch/index.ts';
import { analyzeCapture, type AgentRow, type CaptureRow } from './analyze.ts';
import { capturesOf, type ScanInput } from './inputs.ts';

/** Captures a batch holds. */
export const BATCH_CAPTURES = 256;

/** Rows of some captures, and how far into its input the reading is (bytes). */
export interface MeasuredBatch {
  rows: { capture: CaptureRow; agents: AgentRow[] }[];
  position: number;
}

/** How an input's reading ended: its captures, and the error that ended it early, if one did. */
export interface Measured {
  captures: number;
  error?: string;
}

/**
 * Measures `input` for `agents`, calling `take` with each batch and waiting for it. An
 * error in the input (a truncated or corrupt file) ends it with the rows read before kept;
 * an error thrown by `take` (the database) is not the input's and is thrown on.
 */
export async function measureInput(
  input: ScanInput,
  agents: readonly string[],
  take: (batch: MeasuredBatch) => Promise<void>,
  client?: RobotsClient,
): Promise<Measured> {
  let captures = 0;
  let position = 0;
  let rows: MeasuredBatch['rows'] = [];
  const flush = async () => {
    if (rows.length === 0) return;
    const batch = { rows, position };
    rows = [];
    await take(batch);
  };
  const reading = capturesOf(input, client, (bytes) => (position = bytes));
  for (;;) {
    let next: IteratorResult<Parameters<typeof analyzeCapture>[0]>;
    try {
      next = await reading.next();
    } catch (caught) {
      await flush();
      return { captures, error: caught instanceof Error ? caught.message : String(caught) };
    }
    if (next.done) break;
    rows.push(analyzeCapture(next.value, agents));
    captures++;
    if (rows.length >= BATCH_CAPTURES) await flush();
  }
  position = input.bytes;
  await flush();
  return { captures };
}
