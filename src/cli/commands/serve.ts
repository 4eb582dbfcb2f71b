import type { Command } from 'commander';
import { redactUrl } from '../../cache/internal.ts';
import { CliError } from '../errors.ts';
import { DEFAULT_USER_AGENT } from '../fetching.ts';
import type { Output } from '../output.ts';

interface ServeOptions {
  port?: number;
  host: string;
  redisUrl?: string;
  allowPrivateAddresses?: boolean;
  userAgent: string;
  agent?: string;
  maxBatch: number;
  log?: boolean;
}

function integer(name: string, min: number, max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new CliError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
    return n;
  };
}

const env = process.env;

/** A redis:// or rediss:// URL, or a one-line error naming where it came from. */
function redisUrl(value: string, from = '--redis-url'): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // not a URL at all: said below
  }
  if (url?.protocol !== 'redis:' && url?.protocol !== 'rediss:') {
    throw new CliError(`${from} must be a redis:// or rediss:// URL, got "${redactUrl(value)}"`);
  }
  return value;
}

/** A yes/no environment variable: true, false, 1, 0, yes or no (any case), else one line. */
function envBoolean(name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '') return false;
  const lower = value.trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(lower)) return true;
  if (['0', 'false', 'no'].includes(lower)) return false;
  throw new CliError(`${name} must be true, false, 1, 0, yes or no, got "${value}"`);
}

export function registerServe(program: Command, output: Output): void {
  program
    .command('serve')
    .description(
      'run the repkit HTTP service: the JSON API under /v1, OpenAPI, health, metrics and the web tester at /',
    )
    .option('--port <n>', 'port (env PORT; default 8080)', integer('--port', 0, 65535))
    .option('--host <address>', 'address to listen on (env HOST)', env.HOST ?? '127.0.0.1')
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
      env.REPKIT_USER_AGENT ?? DEFAULT_USER_AGENT,
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
    .option('--log', 'log every request (JSON lines on stdout)')
    .addHelpText(
      'after',
      `
Examples:
  $ repkit serve                                     (http://127.0.0.1:8080, in-memory cache)
  $ REDIS_URL=redis://10.0.0.5:6379 repkit serve --host 0.0.0.0 --port 9000

Then: curl 'http://127.0.0.1:8080/v1/check?url=https://example.com/page&agent=Googlebot'`,
    )
    .action(async (options: ServeOptions) => {
      // The environment is read here, by `serve` alone: a bad REDIS_URL or PORT never breaks
      // a command that does not use them.
      const port = options.port ?? (env.PORT ? integer('PORT', 0, 65535)(env.PORT) : 8080);
      const redis =
        options.redisUrl ?? (env.REDIS_URL ? redisUrl(env.REDIS_URL, 'REDIS_URL') : undefined);
      const allowPrivate =
        Boolean(options.allowPrivateAddresses) || envBoolean('REPKIT_ALLOW_PRIVATE_ADDRESSES');
      // Loaded here: the service's dependencies would slow every other command's start-up.
      const { startService } = await import('../../server/index.ts').catch((error: unknown) => {
        // The service's packages are optional peers: the library and the other commands
        // do not need them.
        const missing = /Cannot find package '([^']+)'/.exec(String((error as Error).message))?.[1];
        if (missing) {
          throw new CliError(
            `repkit serve needs the service's packages (${missing} is missing): npm i fastify @fastify/swagger prom-client piscina redis`,
          );
        }
        throw error;
      });
      const service = await startService({
        port,
        host: options.host,
        ...(redis ? { redisUrl: redis } : {}),
        allowPrivateAddresses: allowPrivate,
        userAgent: options.userAgent,
        ...(options.agent ? { agent: options.agent } : {}),
        maxBatch: options.maxBatch,
        logger: Boolean(options.log),
        onWarning: (message) => output.err(`repkit: ${message}`),
      }).catch((error: NodeJS.ErrnoException) => {
        const where = `${options.host}:${port}`;
        if (error.code === 'EADDRINUSE')
          throw new CliError(`cannot listen on ${where}: the address is in use`);
        if (error.code === 'EACCES')
          throw new CliError(`cannot listen on ${where}: permission denied`);
        if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
          throw new CliError(`cannot listen on ${where}: no such address on this machine`);
        }
        throw error;
      });
      output.err(
        `repkit: serving on ${service.url} (cache: ${redis ? `Redis at ${redactUrl(redis)}` : 'in memory'}); web tester at ${service.url}/`,
      );
      const stop = async () => {
        await service.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await new Promise(() => {}); // serve until stopped
    });
}
