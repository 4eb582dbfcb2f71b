/**
 * Who may use the service, and how much: an optional bearer token, the Host names it answers
 * to (DNS rebinding), a per-client rate limit, and security headers for the tester's page.
 * Each from a well-kept fastify plugin where one exists.
 */
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { BoundedMap, loadWithPeer } from '../core/internal.ts';
import {
  allowedHostSet,
  answersHost,
  bearerCheck,
  misdirectedMessage,
  UNAUTHORIZED,
} from '../access/index.ts';

export interface AccessOptions {
  /**
   * Every route but `/healthz`, the web tester's files, `/docs` and `/openapi.json` asks for
   * `Authorization: Bearer <token>` (401 otherwise): the tester's page asks for the token
   * when the service does. Default: none.
   */
  token?: string;
  /**
   * The Host header values answered (names, `name:port`, or `*` for any); any other is a 421,
   * so that a web page cannot DNS-rebind a name of its own onto the service. Default: the
   * loopback names (`localhost`, `127.0.0.1`, `[::1]`) and the address listened on; any,
   * when it listens on every address (`0.0.0.0`, `::`): list the names then.
   */
  allowedHosts?: readonly string[];
  /** Requests per minute per client (its address); 429 with Retry-After past it. Default: no limit. */
  rateLimitPerMinute?: number;
  /**
   * Web pages of these origins (`https://app.example`, or `*` for any) may call the API from
   * a browser (CORS, with `@fastify/cors`): their preflights are answered before the token is
   * asked for, and `Authorization`, `Content-Type` and `X-Request-Id` may be sent. Default:
   * none, no CORS headers at all.
   */
  corsOrigins?: readonly string[];
}

/**
 * Paths open without a token: health, the web tester's files, and the API's description
 * (`/docs`, `/openapi.json`: what the API is, not what it answers). The token protects the
 * API itself: every `/v1/` call, the metrics and MCP.
 */
const OPEN = new Set([
  '/healthz',
  '/readyz',
  '/',
  '/tester.js',
  '/tester-worker.js',
  '/docs',
  '/openapi.json',
]);

export async function registerAccess(
  app: FastifyInstance,
  options: AccessOptions,
  listenHost: string,
): Promise<void> {
  const allowed = allowedHostSet(options.allowedHosts, listenHost);
  if (allowed) {
    // Hooks on every request are written with `done`, not async: a promise per hook per
    // request is measurable on the cached check's path.
    app.addHook('onRequest', (request, reply, done) => {
      if (answersHost(allowed, request.headers.host)) return done();
      reply.code(421).send({
        error: 'misdirected-request',
        message: misdirectedMessage(request.headers.host, 'this service'),
      });
    });
  }

  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) {
    // Loaded only when asked for: the service runs without the package otherwise.
    const { default: cors } = await loadWithPeer(
      '@fastify/cors',
      'CORS (--cors-origins)',
      () => import('@fastify/cors'),
    );
    const any = options.corsOrigins.includes('*');
    await app.register(cors, {
      origin: any ? '*' : [...options.corsOrigins],
      methods: ['GET', 'POST'],
      allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
      exposedHeaders: ['x-request-id', 'retry-after'],
      maxAge: 600,
    });
  }

  if (options.token !== undefined) {
    const hasToken = bearerCheck(options.token);
    const guesses = new GuessLimit();
    app.addHook('onRequest', (request, reply, done) => {
      if (OPEN.has(request.url.split('?')[0]!)) return done();
      // A browser's preflight carries no credentials (CORS, when it is on, answers it first).
      if (request.method === 'OPTIONS') return done();
      const wait = guesses.waitSeconds(request.ip);
      if (wait > 0) {
        reply
          .code(429)
          .header('retry-after', String(wait))
          .send({
            error: 'rate-limited',
            message: `more than ${GuessLimit.PER_MINUTE} wrong tokens a minute from this client; try again in ${wait} s`,
          });
        return;
      }
      if (hasToken(request.headers.authorization)) return done();
      guesses.wrong(request.ip);
      reply
        .code(401)
        .header('www-authenticate', UNAUTHORIZED.challenge)
        .send({ error: 'unauthorized', message: UNAUTHORIZED.message });
    });
  }

  if (options.rateLimitPerMinute !== undefined) {
    await app.register(rateLimit, {
      global: true,
      max: options.rateLimitPerMinute,
      timeWindow: 60_000,
      // A client is its address: there is one token, shared by every caller who has it, so
      // a bucket per token would let one caller spend everyone's allowance.
      keyGenerator: (request) => request.ip,
      allowList: (request) => request.url === '/healthz' || request.url === '/readyz',
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        error: 'rate-limited',
        message: `more than ${context.max} requests a minute from this client; try again in ${Math.ceil(context.ttl / 1000)} s`,
      }),
    });
  }
}

/**
 * The usual headers and a CSP for the web tester's files, registered in their own scope:
 * the page may run only its own scripts and workers. API answers are JSON read by programs,
 * which these headers do not protect; helmet's hook on every answer cost 40% of cached
 * `GET /v1/check` throughput (13,600 against 7,600 a second in alternating runs), and even
 * off (`global: false`) its hook ran on every request, so API routes stay out of its scope.
 */
export async function registerSecurityHeaders(scope: FastifyInstance): Promise<void> {
  await scope.register(helmet, {
    // Ignored, with a console error, on a plain-HTTP origin that is not loopback; the page
    // opens no other window, and frame-ancestors below keeps it out of frames.
    crossOriginOpenerPolicy: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // helmet's default would make a browser fetch the page's scripts over https, which a
        // plain-HTTP service (in a container, on 0.0.0.0) does not serve: a blank page.
        upgradeInsecureRequests: null,
        scriptSrc: ["'self'"],
        workerSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
  });
}

/**
 * Wrong tokens per client address: past `PER_MINUTE` in a minute, the client is refused (429)
 * until the minute is over, token or not. A token of 16 characters is not guessed, but no
 * client gets to try endlessly either. The last 10,000 clients are remembered.
 */
class GuessLimit {
  static readonly PER_MINUTE = 20;
  readonly #clients = new BoundedMap<string, { since: number; wrong: number }>({
    maxEntries: 10_000,
  });

  wrong(client: string): void {
    const now = Date.now();
    const seen = this.#clients.get(client);
    if (!seen || now - seen.since >= 60_000) this.#clients.set(client, { since: now, wrong: 1 });
    else seen.wrong++;
  }

  /** Seconds `client` must wait; 0 when it may try. */
  waitSeconds(client: string): number {
    const seen = this.#clients.get(client);
    if (!seen || seen.wrong < GuessLimit.PER_MINUTE) return 0;
    const left = 60_000 - (Date.now() - seen.since);
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }
}
