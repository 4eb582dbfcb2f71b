import type { Command } from 'commander';
import { redactUrl } from '../../cache/internal.ts';
import { CliError } from '../errors.ts';
import {
  allowedHostsOf,
  hostList,
  listenError,
  openEndpointWarning,
  redisUrl,
  signalled,
  tokenOf,
} from '../endpoint.ts';
import { DEFAULT_USER_AGENT, edgeClientOptions, edgeFlags } from '../fetching.ts';
import type { Output } from '../output.ts';
import { packageVersion } from '../version.ts';
import { integer } from '../options.ts';

interface ServeOptions {
  corsOrigins?: string[];
  port?: number;
  host?: string;
  redisUrl?: string;
  allowPrivateAddresses?: boolean;
  userAgent: string;
  agent?: string;
  maxBatch: number;
  log?: boolean;
  token?: string;
  allowedHosts?: string[];
  rateLimit?: number;
  newOriginsPerMinute?: number;
  storeBytesPerMinute?: number;
  challenge: 'unreachable' | 'literal';
  webBotAuthKey?: string;
  signatureAgent?: string;
}

const env = process.env;

/** A yes/no environment variable: true, false, 1, 0, yes or no (any case), else one line. */
function envBoolean(name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '') return false;
  const lower = value.trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(lower)) return true;
  if (['0', 'false', 'no'].includes(lower)) return false;
  throw new CliError(`${name} must be true, false, 1, 0, yes or no, got "${value}"`);
}

/**
 * An address to listen on. Empty is an error, never "every address" (which is what Node makes
 * of an empty host): every address is asked for as 0.0.0.0 or ::.
 */
function hostAddress(value: string, name: string): string {
  if (value.trim() === '') {
    throw new CliError(`${name} is empty: give an address (0.0.0.0 or :: for every one)`);
  }
  return value.trim();
}

/**
 * Web origins for CORS: `*`, or each `scheme://host[:port]` exactly as a browser sends it in
 * `Origin` (no path, no trailing slash: a near miss would never match, silently).
 */
function corsOrigins(value: string, name: string): string[] {
  const origins = value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (origins.length === 0) throw new CliError(`${name} is empty: give origins, or * for any`);
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
      throw new CliError(
        `${name}: ${JSON.stringify(origin)} is not a web origin (scheme://host[:port], as in https://app.example)`,
      );
    }
  }
  return origins;
}

/** Pino's levels, which `LOG_LEVEL` names (`silent` logs nothing). */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * The service's logging: `LOG_LEVEL` (one of pino's levels) sets the level and turns logging
 * on; without it, `--log` logs at info. A level that is none is an error, not silence.
 */
function loggerOf(log: boolean | undefined): boolean | { level: string } {
  const level = env['LOG_LEVEL']?.trim().toLowerCase();
  if (level === undefined || level === '') return Boolean(log);
  if (!LOG_LEVELS.includes(level)) {
    throw new CliError(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env['LOG_LEVEL']}"`,
    );
  }
  return { level };
}

/** An integer environment variable within bounds; undefined when unset or empty. */
function envInteger(name: string, min: number, max: number): number | undefined {
  const value = env[name];
  return value ? integer(name, min, max)(value) : undefined;
}

const SERVE_HELP = `
Examples:
  $ repkit serve                                     (http://127.0.0.1:8080, in-memory cache)
  $ REDIS_URL=redis://10.0.0.5:6379 repkit serve --host 0.0.0.0 --port 9000

Then: curl 'http://127.0.0.1:8080/v1/check?url=https://example.com/page&agent=Googlebot'

Exit status: 0 stopped by SIGINT or SIGTERM (requests in flight answered first), 2 a bad
option or environment variable, a missing package, or an address it cannot listen on.`;

export function registerServe(program: Command, output: Output): void {
  edgeFlags(program.command('serve'), false)
    .description(
      'run the repkit HTTP service: the JSON API under /v1, OpenAPI, health, metrics and the web tester at /',
    )
    .option('--port <n>', 'port (env PORT; default 8080)', integer('--port', 0, 65535))
    .option(
      '--host <address>',
      'address to listen on (env HOST; default 127.0.0.1)',
      (value: string) => hostAddress(value, '--host'),
    )
    .option(
      '--redis-url <url>',
      'share the cache through this Redis (env REDIS_URL); default: in memory',
      (value: string) => redisUrl(value),
    )
    .option(
      '--allow-private-addresses',
      'allow checking URLs on private, loopback and link-local addresses (env REPKIT_ALLOW_PRIVATE_ADDRESSES=true)',
    )
    .option(
      '--user-agent <header>',
      'User-Agent of robots.txt fetches (env REPKIT_USER_AGENT)',
      env.REPKIT_USER_AGENT || DEFAULT_USER_AGENT,
    )
    .option(
      '--agent <name>',
      'crawler name used when a request names none (default: the User-Agent product token)',
    )
    .option(
      '--max-batch <n>',
      'most URLs in one request',
      integer('--max-batch', 1, 100_000),
      1_000,
    )
    .option('--log', 'log every request (JSON lines on stdout; env LOG_LEVEL sets the level)')
    .option(
      '--token <token>',
      'require Authorization: Bearer <token> on every route but /healthz and the tester page (env REPKIT_TOKEN)',
    )
    .option(
      '--allowed-hosts <names>',
      'Host header values answered, comma-separated, * for any (env REPKIT_ALLOWED_HOSTS); default: loopback names and --host',
      (value: string) => hostList(value, '--allowed-hosts'),
    )
    .option(
      '--cors-origins <origins>',
      'web origins whose pages may call the API from a browser, comma-separated, * for any (env REPKIT_CORS_ORIGINS); default: none',
      (value: string) => corsOrigins(value, '--cors-origins'),
    )
    .option(
      '--rate-limit <n>',
      'requests a minute per client address; 429 with Retry-After past it (env REPKIT_RATE_LIMIT)',
      integer('--rate-limit', 1, 10_000_000),
    )
    .option(
      '--new-origins-per-minute <n>',
      'robots.txt fetches a client may start a minute (new origins), 0 for no limit; 429 with Retry-After past it (env REPKIT_NEW_ORIGINS_PER_MINUTE; default 1000)',
      integer('--new-origins-per-minute', 0, 10_000_000),
    )
    .option(
      '--store-bytes-per-minute <n>',
      "bytes of robots.txt files a client's fetches may add to the store a minute; 429 with Retry-After past it (env REPKIT_STORE_BYTES_PER_MINUTE; default 67108864, 64 MiB)",
      integer('--store-bytes-per-minute', 1, Number.MAX_SAFE_INTEGER),
    )
    .addHelpText('after', SERVE_HELP)
    .action(async (options: ServeOptions) => {
      await runServe(options, output);
      process.exit(0);
    });
}

/** The service's settings: flags first, then the environment, read by `serve` alone. */
function serveSettings(options: ServeOptions) {
  // The environment is read here, by `serve` alone: a bad REDIS_URL or PORT never breaks
  // a command that does not use them.
  const port = options.port ?? envInteger('PORT', 0, 65535) ?? 8080;
  // An empty HOST is unset, as every variable here: never Node's "every address".
  const host = options.host ?? (env.HOST ? hostAddress(env.HOST, 'HOST') : '127.0.0.1');
  const redis =
    options.redisUrl ?? (env.REDIS_URL ? redisUrl(env.REDIS_URL, 'REDIS_URL') : undefined);
  const allowPrivate =
    Boolean(options.allowPrivateAddresses) || envBoolean('REPKIT_ALLOW_PRIVATE_ADDRESSES');
  const token = tokenOf(options.token);
  const allowedHosts = allowedHostsOf(options.allowedHosts);
  const cors =
    options.corsOrigins ??
    (env.REPKIT_CORS_ORIGINS
      ? corsOrigins(env.REPKIT_CORS_ORIGINS, 'REPKIT_CORS_ORIGINS')
      : undefined);
  const rateLimit = options.rateLimit ?? envInteger('REPKIT_RATE_LIMIT', 1, 10_000_000);
  const newOrigins =
    options.newOriginsPerMinute ?? envInteger('REPKIT_NEW_ORIGINS_PER_MINUTE', 0, 10_000_000);
  const storeBytes =
    options.storeBytesPerMinute ??
    envInteger('REPKIT_STORE_BYTES_PER_MINUTE', 1, Number.MAX_SAFE_INTEGER);
  return {
    port,
    host,
    redis,
    allowPrivate,
    token,
    allowedHosts,
    cors,
    rateLimit,
    newOrigins,
    storeBytes,
  };
}

/** `repkit serve`: the service started with its settings, serving until SIGINT or SIGTERM. */
export async function runServe(
  options: ServeOptions,
  output: Output,
  until: Promise<string> = signalled(),
): Promise<void> {
  const settings = serveSettings(options);
  const { port, host, redis, allowPrivate, token, allowedHosts, rateLimit } = settings;
  // Loaded here: the service's dependencies would slow every other command's start-up.
  const { startService } = await import('../../server/index.ts').catch((error: unknown) => {
    // The service's packages are optional peers: the library and the other commands
    // do not need them.
    const missing = /Cannot find package '([^']+)'/.exec(String((error as Error).message))?.[1];
    if (missing) {
      throw new CliError(
        `repkit serve needs the service's packages (${missing} is missing): npm i fastify @fastify/swagger @fastify/helmet @fastify/rate-limit prom-client piscina redis`,
      );
    }
    throw error;
  });
  const service = await startService({
    port,
    host,
    version: packageVersion(),
    ...(redis ? { redisUrl: redis } : {}),
    allowPrivateAddresses: allowPrivate,
    userAgent: options.userAgent,
    ...(options.agent ? { agent: options.agent } : {}),
    maxBatch: options.maxBatch,
    ...(settings.newOrigins !== undefined ? { newOriginsPerMinute: settings.newOrigins } : {}),
    ...(settings.storeBytes !== undefined ? { storeBytesPerMinute: settings.storeBytes } : {}),
    logger: loggerOf(options.log),
    access: {
      ...(token !== undefined ? { token } : {}),
      ...(allowedHosts ? { allowedHosts } : {}),
      ...(settings.cors ? { corsOrigins: settings.cors } : {}),
      ...(rateLimit !== undefined ? { rateLimitPerMinute: rateLimit } : {}),
    },
    onWarning: (message) => output.err(`repkit: ${message}`),
    ...edgeClientOptions(options),
  }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, host, port);
  });
  output.err(
    `repkit ${packageVersion()}: serving on ${service.url} (cache: ${redis ? `Redis at ${redactUrl(redis)}` : 'in memory'}); web tester at ${service.url}/`,
  );
  const open = openEndpointWarning(host, {
    token: token !== undefined,
    allowedHosts: allowedHosts !== undefined,
    rateLimit: rateLimit !== undefined,
  });
  if (open) output.err(open);
  if (allowPrivate) {
    output.err(
      'repkit: warning: private, loopback and link-local addresses may be fetched (--allow-private-addresses)',
    );
  }
  await stopWhen(until, service, output);
}

/** Once `until` says so (a signal): requests in flight answered, workers and store closed. */
async function stopWhen(
  until: Promise<string>,
  service: {
    app: { server: { getConnections(cb: (error: Error | null, count: number) => void): void } };
    close(): Promise<void>;
  },
  output: Output,
): Promise<void> {
  const signal = await until;
  const started = performance.now();
  const open = await new Promise<number>((done) =>
    service.app.server.getConnections((_error, count) => done(count ?? 0)),
  );
  output.err(`repkit: ${signal}: stopping (${open} connection${open === 1 ? '' : 's'} open)`);
  await service.close();
  output.err(
    `repkit: stopped in ${Math.round(performance.now() - started)} ms: requests in flight answered, workers and store closed`,
  );
}
