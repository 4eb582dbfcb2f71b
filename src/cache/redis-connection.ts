import keySlot from 'cluster-key-slot';
import { createClient, createCluster } from 'redis';

/** Where a RedisStore connects: one server, or a cluster found from some of its nodes. */
export type RedisTarget =
  { kind: 'server'; url: string } | { kind: 'cluster'; rootNodes: readonly { url: string }[] };

/**
 * The few commands RedisStore uses, the same on one server and on a cluster. Every call names
 * one key, so a cluster routes it to that key's slot; nothing spans slots.
 */
export interface RedisConnection {
  /** Whether commands can be sent now. */
  readonly isReady: boolean;
  /** Whether a connection is open or being opened (closing it is then graceful). */
  readonly isOpen: boolean;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { PX: number; NX?: true }): Promise<string | null>;
  del(key: string): Promise<number>;
  /** Runs a Lua script on the node that holds `key`. */
  evalOn(key: string, script: string, args: readonly string[]): Promise<unknown>;
  ping(): Promise<string>;
  /** The node that holds `key` (its address on a cluster); undefined: any node. */
  nodeOf(key: string | undefined): string;
  /** PING sent to the node that holds `key` (undefined: any node). */
  pingNode(key: string | undefined): Promise<string>;
  /**
   * Ends the connection: gracefully when it is ready, at once otherwise; after a socket
   * being opened has opened or failed, so that none is left behind. Nothing when closed.
   */
  close(): Promise<void>;
  destroy(): void;
}

interface Events {
  ready(): void;
  error(error: Error): void;
}

const socket = {
  connectTimeout: 2_000,
  reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
};

/** Connects in the background; `events` say when commands can be sent and when they cannot. */
export function openRedis(target: RedisTarget, events: Events): RedisConnection {
  return target.kind === 'server' ? openServer(target.url, events) : openCluster(target, events);
}

function openServer(url: string, events: Events): RedisConnection {
  // Fail at once while disconnected instead of queueing: the store's fallback answers meanwhile.
  const client = createClient({ url, disableOfflineQueue: true, socket });
  client.on('error', (error: Error) => events.error(error));
  client.on('ready', () => events.ready());
  // node-redis loses a close made while a socket is being opened: the socket it then opens
  // stays, and keeps the process alive. So close waits for the attempt to end first.
  const attempt = socketAttempts(client);
  client.connect().catch(() => {});
  return {
    get isReady() {
      return client.isReady;
    },
    get isOpen() {
      return client.isOpen;
    },
    get: (key) => client.get(key),
    set: (key, value, options) => client.set(key, value, options),
    del: (key) => client.del(key),
    evalOn: (key, script, args) => client.eval(script, { keys: [key], arguments: [...args] }),
    ping: () => client.ping(),
    // One server is one node, whatever the key.
    nodeOf: () => 'server',
    pingNode: () => client.ping(),
    close: async () => {
      await attempt.settled();
      if (!client.isOpen) return;
      if (client.isReady) await client.close();
      else client.destroy();
    },
    destroy: () => {
      void attempt.settled().then(() => {
        if (client.isOpen) client.destroy();
      });
    },
  };
}

/** How long a socket attempt may take: the connect timeout, and a margin for a busy machine. */
const ATTEMPT_MS = socket.connectTimeout + 1_000;

/**
 * Follows `client`'s socket attempts: one starts with the connection and with each
 * reconnection, and ends once a socket is open (`connect`) or has failed (`error`).
 * `settled()` resolves when none is under way, or after ATTEMPT_MS.
 */
function socketAttempts(client: ReturnType<typeof createClient>): { settled(): Promise<void> } {
  let opening = true;
  const waiting: (() => void)[] = [];
  const end = () => {
    opening = false;
    for (const done of waiting.splice(0)) done();
  };
  client.on('connect', end);
  client.on('error', end);
  client.on('reconnecting', () => (opening = true));
  return {
    settled: () =>
      opening
        ? new Promise<void>((done) => {
            const timer = setTimeout(done, ATTEMPT_MS);
            waiting.push(() => {
              clearTimeout(timer);
              done();
            });
          })
        : Promise.resolve(),
  };
}

function openCluster(
  target: Extract<RedisTarget, { kind: 'cluster' }>,
  events: Events,
): RedisConnection {
  const cluster = createCluster({
    rootNodes: target.rootNodes.map(({ url }) => ({ url })),
    defaults: { disableOfflineQueue: true, socket },
  });
  // The cluster is usable once its topology is known; a node that fails afterwards makes its
  // keys' calls fail (and the fallback answer them) until the client reconnects to it.
  let up = false;
  cluster.on('connect', () => {
    up = true;
    events.ready();
  });
  cluster.on('error', (error: Error) => events.error(error));
  cluster.on('node-error', (error: Error) => events.error(error));
  cluster.on('node-ready', () => {
    if (up) events.ready();
  });
  cluster.connect().catch((error: Error) => events.error(error));
  return {
    get isReady() {
      return up && cluster.isOpen;
    },
    get isOpen() {
      return cluster.isOpen;
    },
    get: (key) => cluster.get(key),
    set: (key, value, options) => cluster.set(key, value, options),
    del: (key) => cluster.del(key),
    evalOn: (key, script, args) => cluster.eval(script, { keys: [key], arguments: [...args] }),
    ping: () => cluster.sendCommand<string>(undefined, true, ['PING']),
    // The master of the key's slot, as the client routes it (the same CRC16 hash).
    nodeOf: (key) =>
      key === undefined ? 'any' : (cluster.slots[keySlot(key)]?.master.address ?? 'unknown'),
    pingNode: (key) => cluster.sendCommand<string>(key, true, ['PING']),
    close: async () => {
      if (cluster.isOpen) await cluster.close();
      else cluster.destroy();
    },
    destroy: () => cluster.destroy(),
  };
}
