import { RepkitError } from '../../core/index.ts';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type * as tasks from './tasks.ts';

type Tasks = typeof tasks;
type TaskName = keyof Tasks;

export interface WorkPoolOptions {
  /** Worker threads. Default: the machine's cores (at least 1, at most 4). */
  threads?: number;
  /** Tasks waiting for a thread before new ones are refused (`WorkRefusedError`, 429). Default 64. */
  maxQueue?: number;
  /** How long one task may run, queueing included, before it is stopped. Default 10 s. */
  deadlineMs?: number;
  /** Heap of each worker, in MiB; a task that needs more ends its worker. Default 256. */
  workerHeapMb?: number;
}

/**
 * Thrown by the service's work pool when it does not give a task's result: the service
 * answers 429 (`busy`) or 413 (the others).
 */
export class WorkRefusedError extends RepkitError {
  constructor(
    /**
     * `busy`: the queue is full; `budget`: the request asks for more than one may;
     * `deadline`: the task ran out of time; `memory`: out of heap.
     */
    readonly reason: 'busy' | 'budget' | 'deadline' | 'memory',
    message: string,
  ) {
    super('work-refused', message);
  }
}

export function isWorkRefusedError(error: unknown): error is WorkRefusedError {
  return error instanceof WorkRefusedError;
}

/**
 * Worker threads for the service's CPU-heavy tasks (parse, explain, lint, diff, checks
 * against large files), with a queue limit and a per-task deadline: a task past its deadline
 * has its thread terminated, so no request can hold a core for longer than `deadlineMs`.
 */
export class WorkPool {
  readonly deadlineMs: number;
  private readonly pool: Piscina;
  /** The most tasks one client may have waiting or running: half the queue. */
  get share(): number {
    return Math.max(1, Math.floor((this.pool.options.maxQueue as number) / 2));
  }

  /** Tasks each client has waiting or running (a client with none has no entry). */
  private readonly held = new Map<string, number>();

  constructor(options: WorkPoolOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 10_000;
    // In tests the sources run as TypeScript (tsx is loaded in every thread); built, as JS.
    this.pool = new Piscina({
      filename: workerModule(),
      minThreads: 1,
      maxThreads: options.threads ?? Math.min(4, Math.max(1, availableParallelism())),
      maxQueue: options.maxQueue ?? 64,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: options.workerHeapMb ?? 256 },
    });
  }

  /**
   * Runs `name` on a worker thread for `client` (its address or token); rejects with
   * `WorkRefusedError` when it cannot. A client may hold at most half the queue's places
   * (waiting or running), so that one client filling it never refuses everyone else.
   */
  async run<N extends TaskName>(
    name: N,
    task: Parameters<Tasks[N]>[0],
    client = '',
  ): Promise<ReturnType<Tasks[N]>> {
    const share = this.share;
    const maxQueue = this.pool.options.maxQueue as number;
    const held = this.held.get(client) ?? 0;
    if (held >= share) {
      throw new WorkRefusedError(
        'busy',
        `this client already has ${held} tasks waiting or running (at most ${share}); try again when they are done`,
      );
    }
    if (this.pool.queueSize >= maxQueue) {
      throw new WorkRefusedError('busy', 'the service is busy with other requests; try again');
    }
    this.held.set(client, held + 1);
    const signal = AbortSignal.timeout(this.deadlineMs);
    try {
      return (await this.pool.run(task, { name, signal })) as ReturnType<Tasks[N]>;
    } catch (error) {
      if (signal.aborted) {
        throw new WorkRefusedError(
          'deadline',
          `this request needs more than ${this.deadlineMs} ms of work; send fewer URLs, agents or rules`,
        );
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new WorkRefusedError(
          'memory',
          'this request needs more memory than one request may use',
        );
      }
      throw error;
    } finally {
      const left = (this.held.get(client) ?? 1) - 1;
      if (left > 0) this.held.set(client, left);
      else this.held.delete(client);
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/**
 * The worker's module: tasks.js beside this file once built. Run from the TypeScript sources
 * (tests, development), worker threads do not get tsx's loader on Node 20, so they start
 * from typescript-worker.mjs, which loads tasks.ts through tsx's API.
 */
function workerModule(): string {
  const typescript = import.meta.url.endsWith('.ts');
  return new URL(typescript ? './typescript-worker.mjs' : './tasks.js', import.meta.url).href;
}
