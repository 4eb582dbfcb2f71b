/**
 * One scan shared by many processes on many machines: its inputs in a Redis Stream read
 * through a consumer group. Each process adds the inputs it was given (each path once: a
 * set beside the stream) and takes entries one at a time; an entry stays pending until the
 * taker's rows are committed. A taker that stops (killed, its machine gone) stops renewing
 * its entry, and after `claimAfterMs` another process claims it (XAUTOCLAIM) and reads the
 * input again: none is lost. An input finished is recorded (`done`) before it is
 * acknowledged, so a claim of one finished but not yet acknowledged is dropped; an input
 * committed by two takers all the same is kept once by `repkit scan --merge`.
 *
 * A process that finds the scan with no inputs at all (none ever added) waits for some: the
 * processes of a scan may start before the one that adds its inputs.
 *
 * Keys (one hash slot, so a Redis Cluster serves them): `{name}:inputs` (the stream),
 * `{name}:queued` (paths added), `{name}:done` (path: the consumer that finished it).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadWithPeer } from '../core/internal.ts';
import type { ScanInput } from './inputs.ts';
import type { InputQueue, Lease } from './queue.ts';

/** How a shared scan is reached. */
export interface RedisQueueOptions {
  /** `redis://` URLs: one server, or several nodes of a cluster. */
  urls: readonly string[];
  /** The scan's name: processes sharing it share its inputs. @default 'repkit-scan' */
  name?: string;
  /**
   * How long an input may go without its taker renewing it (every third of this) before
   * another process takes it over. @default 60_000
   */
  claimAfterMs?: number;
}

/** The consumer group every process reads through. */
const GROUP = 'readers';

/** Adds an input once: its path to the set, and if it was not there, an entry to the stream. */
const ADD = `if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  redis.call('XADD', KEYS[2], '*', 'input', ARGV[2])
  return 1
end
return 0`;

/** Renews an entry's lease, only while this consumer still holds it. */
const RENEW = `local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #p == 1 and p[1][2] == ARGV[3] then
  redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, ARGV[2], 'JUSTID')
  return 1
end
return 0`;

/** A command on the node holding `key`: one server or a cluster alike. */
type Send = (key: string, args: readonly string[]) => Promise<unknown>;

/** A scan's inputs in a Redis Stream; see the module comment. */
export class RedisQueue implements InputQueue {
  readonly #send: Send;
  readonly #close: () => Promise<void>;
  readonly #keys: { stream: string; queued: string; done: string };
  readonly #claimAfterMs: number;
  /** The leases being renewed: closing the queue stops them (its process is stopping). */
  readonly #renewing = new Set<NodeJS.Timeout>();
  /** This process's name in the group: its host, its PID and a random part. */
  readonly consumer = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  private constructor(send: Send, close: () => Promise<void>, options: RedisQueueOptions) {
    this.#send = send;
    this.#close = close;
    const name = `{${options.name ?? 'repkit-scan'}}`;
    this.#keys = { stream: `${name}:inputs`, queued: `${name}:queued`, done: `${name}:done` };
    this.#claimAfterMs = options.claimAfterMs ?? 60_000;
  }

  /** Connects and makes the stream's group (once for all processes). */
  static async open(options: RedisQueueOptions): Promise<RedisQueue> {
    const redis = await loadWithPeer('redis', 'repkit scan --redis-url', () => import('redis'));
    const socket = {
      connectTimeout: 5_000,
      reconnectStrategy: (n: number) => Math.min(100 * 2 ** n, 2_000),
    };
    let send: Send;
    let close: () => Promise<void>;
    if (options.urls.length === 1) {
      const client = redis.createClient({ url: options.urls[0]!, socket });
      client.on('error', () => {}); // commands fail and say why; reconnection is the client's
      await client.connect();
      send = (_key, args) => client.sendCommand([...args]);
      close = async () => void (await client.close());
    } else {
      const cluster = redis.createCluster({
        rootNodes: options.urls.map((url) => ({ url })),
        defaults: { socket },
      });
      cluster.on('error', () => {});
      await cluster.connect();
      send = (key, args) => cluster.sendCommand(key, false, [...args]);
      close = async () => void (await cluster.close());
    }
    const queue = new RedisQueue(send, close, options);
    try {
      await queue.#command(['XGROUP', 'CREATE', queue.#keys.stream, GROUP, '0', 'MKSTREAM']);
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) {
        await close();
        throw error;
      }
    }
    return queue;
  }

  #command(args: readonly string[]): Promise<unknown> {
    return this.#send(this.#keys.stream, args);
  }

  /** Adds `inputs` to the scan, each path once whoever adds it. @returns how many were new. */
  async add(inputs: readonly ScanInput[]): Promise<number> {
    let added = 0;
    for (const input of inputs) {
      const { queued, stream } = this.#keys;
      added += Number(
        await this.#command(['EVAL', ADD, '2', queued, stream, input.path, JSON.stringify(input)]),
      );
    }
    return added;
  }

  async next(): Promise<Lease | undefined> {
    const { stream, done } = this.#keys;
    for (;;) {
      // An entry left by a taker that stopped renewing it, first.
      const [, claimed] = (await this.#command([
        'XAUTOCLAIM',
        stream,
        GROUP,
        this.consumer,
        String(this.#claimAfterMs),
        '0-0',
        'COUNT',
        '1',
      ])) as [string, (Entry | null)[]];
      const orphan = claimed.find((e): e is Entry => e !== null);
      if (orphan) {
        const input = inputOf(orphan);
        // Finished and recorded, but not acknowledged before its taker stopped.
        if (await this.#command(['HEXISTS', done, input.path])) {
          await this.#command(['XACK', stream, GROUP, orphan[0]]);
          continue;
        }
        return this.#lease(orphan[0], input, true);
      }
      const read = (await this.#command([
        'XREADGROUP',
        'GROUP',
        GROUP,
        this.consumer,
        'COUNT',
        '1',
        'STREAMS',
        stream,
        '>',
      ])) as [string, Entry[]][] | null;
      const entry = read?.[0]?.[1][0];
      if (entry) return this.#lease(entry[0], inputOf(entry), false);
      // Nothing new: done when no entry is pending either, else wait for one to end or stall;
      // and a scan no process has added inputs to yet is waited for (workers started first).
      const [pending] = (await this.#command(['XPENDING', stream, GROUP])) as [number];
      if (Number(pending) === 0 && Number(await this.#command(['SCARD', this.#keys.queued])) > 0) {
        return undefined;
      }
      await sleep(Math.min(1_000, this.#claimAfterMs / 4));
    }
  }

  #lease(id: string, input: ScanInput, claimed: boolean): Lease {
    const { stream, done } = this.#keys;
    const renew = () =>
      this.#command(['EVAL', RENEW, '1', stream, GROUP, id, this.consumer]).catch(() => 0);
    const timer = setInterval(() => void renew(), this.#claimAfterMs / 3);
    timer.unref();
    this.#renewing.add(timer);
    const stop = () => {
      clearInterval(timer);
      this.#renewing.delete(timer);
    };
    return {
      input,
      claimed,
      done: async () => {
        stop();
        await this.#command(['HSETNX', done, input.path, this.consumer]);
        await this.#command(['XACK', stream, GROUP, id]);
      },
      release: async () => {
        stop();
        // Idle as if long stopped: the next process to look claims it at once.
        await this.#command([
          'XCLAIM',
          stream,
          GROUP,
          this.consumer,
          '0',
          id,
          'IDLE',
          String(this.#claimAfterMs),
          'JUSTID',
        ]).catch(() => {});
      },
    };
  }

  close(): Promise<void> {
    for (const timer of this.#renewing) clearInterval(timer);
    this.#renewing.clear();
    return this.#close();
  }
}

/** A stream entry as Redis sends it: its ID and its fields, name then value. */
type Entry = [id: string, fields: string[]];

function inputOf(entry: Entry): ScanInput {
  const fields = entry[1];
  const at = fields.indexOf('input');
  return JSON.parse(fields[at + 1]!) as ScanInput;
}
