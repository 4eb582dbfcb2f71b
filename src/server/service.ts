import type { FastifyInstance } from 'fastify';
import { MemoryStore, type CacheStore } from '../cache/index.ts';
import {
  checkWebBotAuth,
  isPublicAddress,
  REPKIT_USER_AGENT,
  RobotsClient,
  type RobotsClientOptions,
} from '../fetch/index.ts';
import type { AccessOptions } from './access.ts';
import { createApp, type AppOptions } from './app.ts';
import { hideRefusedNames } from './hidden-names.ts';
import { ServiceMetrics } from './metrics.ts';

export interface ServiceOptions {
  /** Default 8080. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A Redis to share the cache with other instances; without it, an in-memory cache. */
  redisUrl?: string;
  /** Prefix of the service's Redis keys. Default `repkit` (keys `repkit:v2:...`). */
  redisPrefix?: string;
  /** User-Agent header of robots.txt fetches. */
  userAgent?: string;
  /**
   * Crawler names matched when a request names none (several: ordered fallbacks). Default:
   * the User-Agent's product token.
   */
  agent?: string | readonly string[];
  allowPrivateAddresses?: boolean;
  /**
   * Which IP addresses robots.txt may be fetched from, checked at the socket on every hop.
   * Default: public ones only (`isPublicAddress`); every one with `allowPrivateAddresses`.
   */
  allowAddress?: RobotsClientOptions['allowAddress'];
  /** Host name resolution underneath the address guard (custom DNS, tests). */
  lookup?: import('node:net').LookupFunction;
  /** DNS limits of the fetch client (see RobotsClientOptions.dns). */
  dns?: RobotsClientOptions['dns'];
  /** Bytes of parsed robots.txt files kept at hand (see RobotsClient). Default 64 MiB. */
  maxParsedBytes?: number;
  /** Bytes of the in-memory cache, when there is no Redis. Default 64 MiB. */
  maxCacheBytes?: number;
  maxBatch?: number;
  /** See AppOptions.newOriginsPerMinute. Default 1,000; 0: no limit. */
  newOriginsPerMinute?: number;
  /** See AppOptions.storeBytesPerMinute. Default 64 MiB. */
  storeBytesPerMinute?: number;
  bodyLimit?: number;
  /** Fetch time limit in ms. Default 15 s. */
  timeoutMs?: number;
  /** Logging (pino's JSON lines on stdout): true at info, or `{ level }`. Default off. */
  logger?: boolean | { level: string };
  /** The running repkit's version, shown by `repkit_build_info`. Default `unknown`. */
  version?: string;
  /** Per-request limits and worker threads (see AppOptions). */
  limits?: Pick<
    AppOptions,
    | 'maxVerdicts'
    | 'maxDiffBytes'
    | 'work'
    | 'requestTimeoutMs'
    | 'headersTimeoutMs'
    | 'largeFileLoopMs'
    | 'drainGraceMs'
  >;
  /** The routes served in place of the API (see `AppOptions.routes`). */
  routes?: AppOptions['routes'];
  /** Token, Host names answered, rate limit per client (see AccessOptions). */
  access?: AccessOptions;
  /**
   * How a wall answering for a robots.txt is read (see `RobotsClientOptions.challenge`).
   * Default `unreachable`. A service never offers to pay for pages (`crawlerMaxPrice`):
   * its callers are strangers.
   */
  challenge?: RobotsClientOptions['challenge'];
  /** Web Bot Auth: the service's fetches are signed (see `RobotsClientOptions.webBotAuth`). */
  webBotAuth?: RobotsClientOptions['webBotAuth'];
  /** Where warnings go (Redis down and back). Default: stderr. */
  onWarning?: (message: string) => void;
}

export interface RunningService {
  app: FastifyInstance;
  /** `http://host:port` it listens on. */
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_SERVICE_USER_AGENT = REPKIT_USER_AGENT;

/** Starts the repkit HTTP service: the API, health, metrics and the web tester. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  // A signing key that cannot be used is a start-up error with its cause (before anything
  // is opened), never a service whose every robots.txt is "unreachable".
  if (options.webBotAuth) await checkWebBotAuth(options.webBotAuth);
  // The Redis store (and the `redis` package) is loaded only when Redis is asked for.
  const redis = options.redisUrl
    ? new (await import('../cache/redis-entry.ts')).RedisStore({
        url: options.redisUrl,
        ...(options.redisPrefix ? { prefix: options.redisPrefix } : {}),
        ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      })
    : undefined;
  // Without Redis the cache is in memory: made here so that /metrics can show its counters.
  const store =
    redis ?? new MemoryStore(options.maxCacheBytes ? { maxBytes: options.maxCacheBytes } : {});
  const metrics = new ServiceMetrics(
    store instanceof MemoryStore ? () => store.stats : undefined,
    redis ? () => redis.connected : undefined,
    options.version,
  );
  const client = serviceClient(options, store, metrics);
  let app: FastifyInstance;
  try {
    app = await createApp({
      client,
      metrics,
      ...(redis ? { redis } : {}),
      allowPrivateAddresses: options.allowPrivateAddresses ?? false,
      ...(options.maxBatch ? { maxBatch: options.maxBatch } : {}),
      ...(options.newOriginsPerMinute !== undefined
        ? { newOriginsPerMinute: options.newOriginsPerMinute }
        : {}),
      ...(options.storeBytesPerMinute !== undefined
        ? { storeBytesPerMinute: options.storeBytesPerMinute }
        : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      logger: options.logger ?? false,
      ...options.limits,
      ...(options.access ? { access: options.access } : {}),
      listenHost: options.host ?? '127.0.0.1',
      ...(options.routes ? { routes: options.routes } : {}),
    });
  } catch (error) {
    await client.close().catch(() => {});
    await redis?.close().catch(() => {});
    throw error;
  }
  const close = async () => {
    await app.close();
    await client.close();
    await redis?.close();
  };
  let address: string;
  try {
    address = await app.listen({
      port: options.port ?? 8080,
      host: options.host ?? '127.0.0.1',
    });
  } catch (error) {
    // An address in use (or refused) ends the start: what was opened is closed, so that the
    // process can exit with the error instead of hanging on the store's connection.
    await close().catch(() => {});
    throw error;
  }
  return { app, url: address, close };
}

/** The service's one client: its store, its address guard (names resolving to a refused
 * address fail as names that do not resolve), its fetches counted in the metrics. */
function serviceClient(
  options: ServiceOptions,
  store: CacheStore,
  metrics: ServiceMetrics,
): RobotsClient {
  const allowAddress =
    options.allowAddress ?? (options.allowPrivateAddresses ? () => true : isPublicAddress);
  // Names that resolve to a refused address fail as names that do not resolve (see
  // hideRefusedNames); with private addresses allowed there is nothing to hide.
  const lookup = options.allowPrivateAddresses
    ? options.lookup
    : hideRefusedNames(allowAddress, options.lookup);
  return new RobotsClient({
    userAgent: options.userAgent ?? DEFAULT_SERVICE_USER_AGENT,
    ...(options.agent ? { agent: options.agent } : {}),
    store,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    allowAddress,
    ...(lookup ? { lookup } : {}),
    ...(options.dns ? { dns: options.dns } : {}),
    ...(options.maxParsedBytes ? { maxParsedBytes: options.maxParsedBytes } : {}),
    onFetch: (report) => metrics.fetch(report),
    onStoreError: () => {},
    ...(options.challenge ? { challenge: options.challenge } : {}),
    ...(options.webBotAuth ? { webBotAuth: options.webBotAuth } : {}),
  });
}
