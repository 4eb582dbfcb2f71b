/**
 * Worker threads over the inputs: one input a task, `size` at once. Each worker reads its
 * input and measures it (measure-worker.ts); the rows come back in batches, and the worker
 * posts a batch only once the one before is taken, so memory per worker is two batches and
 * one capture whatever the input's size.
 */
import { Worker } from 'node:worker_threads';
import type { ScanInput } from './inputs.ts';
import type { Measured, MeasuredBatch } from './measure.ts';

/** What the pool sends a worker. */
export type ToWorker =
  { type: 'input'; input: ScanInput; agents: readonly string[] } | { type: 'taken' };

/** What a worker sends back. */
export type FromWorker =
  | { type: 'batch'; batch: MeasuredBatch }
  | { type: 'done'; measured: Measured }
  | { type: 'failed'; message: string };

/** The worker's module: its compiled file, or (running from source under tsx) its source. */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./measure-worker.js', here));
  // Node 20 does not pass a loader to worker threads: the source registers tsx first.
  const source = new URL('./measure-worker.ts', here).href;
  return new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`,
    { eval: true },
  );
}

/** `size` worker threads measuring inputs. */
export class MeasurePool {
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();
  readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  /**
   * Measures `input` on an idle worker (started when none is), passing each batch to `take`.
   * At most `size` at once: the caller runs that many. A worker that fails is let go.
   */
  async measure(
    input: ScanInput,
    agents: readonly string[],
    take: (batch: MeasuredBatch) => Promise<void>,
  ): Promise<Measured> {
    const worker = this.#idle.pop() ?? this.#start();
    try {
      const measured = await new Promise<Measured>((resolve, reject) => {
        const onMessage = (message: FromWorker) => {
          if (message.type === 'batch') {
            take(message.batch).then(
              () => worker.postMessage({ type: 'taken' } satisfies ToWorker),
              (error: unknown) => finish(() => reject(error)),
            );
          } else if (message.type === 'done') {
            finish(() => resolve(message.measured));
          } else {
            finish(() =>
              reject(new Error(`a scan worker failed on ${input.path}: ${message.message}`)),
            );
          }
        };
        const onError = (error: Error) => finish(() => reject(error));
        const onExit = (code: number) =>
          finish(() => reject(new Error(`a scan worker exited (${code}) reading ${input.path}`)));
        const finish = (settle: () => void) => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          settle();
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ type: 'input', input, agents } satisfies ToWorker);
      });
      this.#idle.push(worker);
      return measured;
    } catch (error) {
      this.#all.delete(worker);
      void worker.terminate();
      throw error;
    }
  }

  #start(): Worker {
    const worker = startWorker();
    this.#all.add(worker);
    return worker;
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    await Promise.all([...this.#all].map((w) => w.terminate()));
    this.#all.clear();
    this.#idle.length = 0;
  }
}
