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
  /** How long one task may run on its thread before it is stopped (waiting not counted). Default 10 s. */
  deadlineMs?: number;
  /** How long a task may wait for a thread before it is refused (`busy`). Default 30 s. */
  maxWaitMs?: number;
  /** The worker module (tests give one of their own); default the service's tasks. */
  module?: string;
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

/** A task waiting for a thread. */
interface Waiting {
  start(): void;
  refuse(error: WorkRefusedError): void;
  timer: NodeJS.Timeout;
}

/**
 * Worker threads for the service's CPU-heavy tasks (parse, explain, lint, diff, checks
 * against large files), with a queue limit and a per-task deadline: a task past its deadline
 * has its thread terminated, so no request can hold a core for longer than `deadlineMs`.
 *
 * Tasks wait here, not in the thread pool: each client has its own line, and a free thread
 * takes the next task of the next client in turn (round robin), so one client's many tasks
 * never stand between another client and a thread. A task's deadline counts from when a
 * thread takes it: time spent waiting is bounded apart (`maxWaitMs`).
 */
export class WorkPool {
  readonly deadlineMs: number;
  readonly maxWaitMs: number;
  private readonly pool: Piscina;
  private readonly threads: number;
  private readonly maxQueue: number;
  private running = 0;
  private waitingCount = 0;
  /** Each client's waiting tasks; the map's order is the turn order. */
  private readonly lines = new Map<string, Waiting[]>();

  /** The most tasks one client may have waiting or running: half the queue. */
  get share(): number {
    return Math.max(1, Math.floor(this.maxQueue / 2));
  }

  /** Tasks each client has waiting or running (a client with none has no entry). */
  private readonly held = new Map<string, number>();

  constructor(options: WorkPoolOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 10_000;
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
    this.threads = options.threads ?? Math.min(4, Math.max(1, availableParallelism()));
    this.maxQueue = options.maxQueue ?? 64;
    // In tests the sources run as TypeScript (tsx is loaded in every thread); built, as JS.
    this.pool = new Piscina({
      filename: options.module ?? workerModule(),
      minThreads: 1,
      maxThreads: this.threads,
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
    const held = this.held.get(client) ?? 0;
    if (held >= share) {
      throw new WorkRefusedError(
        'busy',
        `this client already has ${held} tasks waiting or running (at most ${share}); try again when they are done`,
      );
    }
    if (this.running >= this.threads && this.waitingCount >= this.maxQueue) {
      throw new WorkRefusedError('busy', 'the service is busy with other requests; try again');
    }
    this.held.set(client, held + 1);
    try {
      // The thread's place is taken now, or by `next` when the turn comes.
      if (this.running >= this.threads) await this.turn(client);
      else this.running++;
      return await this.dispatch(name, task);
    } finally {
      const left = (this.held.get(client) ?? 1) - 1;
      if (left > 0) this.held.set(client, left);
      else this.held.delete(client);
    }
  }

  /** Resolves when a thread takes `client`'s next task (see `next`). */
  private turn(client: string): Promise<void> {
    return new Promise<void>((start, refuse) => {
      const waiting: Waiting = {
        start,
        refuse,
        timer: setTimeout(() => {
          const line = this.lines.get(client);
          const at = line?.indexOf(waiting) ?? -1;
          if (at < 0) return;
          line!.splice(at, 1);
          if (line!.length === 0) this.lines.delete(client);
          this.waitingCount--;
          refuse(
            new WorkRefusedError(
              'busy',
              `no worker was free for ${this.maxWaitMs} ms; the service is busy, try again`,
            ),
          );
        }, this.maxWaitMs),
      };
      const line = this.lines.get(client);
      if (line) line.push(waiting);
      else this.lines.set(client, [waiting]);
      this.waitingCount++;
    });
  }

  /** The task on the thread whose place it took; its deadline counts from here. */
  private async dispatch<N extends TaskName>(
    name: N,
    task: Parameters<Tasks[N]>[0],
  ): Promise<ReturnType<Tasks[N]>> {
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
      this.running--;
      this.next();
    }
  }

  /** A free thread takes the first waiting task of the client whose turn it is. */
  private next(): void {
    const first = this.lines.entries().next();
    if (first.done) return;
    const [client, line] = first.value;
    const waiting = line.shift()!;
    this.lines.delete(client);
    // The client goes to the back of the turn order, with what it has left.
    if (line.length > 0) this.lines.set(client, line);
    this.waitingCount--;
    clearTimeout(waiting.timer);
    this.running++;
    waiting.start();
  }

  close(): Promise<void> {
    for (const line of this.lines.values()) {
      for (const waiting of line) {
        clearTimeout(waiting.timer);
        waiting.refuse(new WorkRefusedError('busy', 'the service is stopping'));
      }
    }
    this.lines.clear();
    this.waitingCount = 0;
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
