import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import swagger, { type SwaggerOptions } from '@fastify/swagger';
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { RedisStore } from '../cache/redis-entry.ts';
import type { RobotsClient } from '../fetch/index.ts';
import { drainOf, type Drain } from '../access/index.ts';
import { registerAccess, type AccessOptions } from './access.ts';
import { answerClientError, registerErrorAnswers } from './answers.ts';
import { loggedRequest } from './log.ts';
import type { ServiceMetrics } from './metrics.ts';
import { registerBodyRoutes } from './routes/bodies.ts';
import { registerCheckRoutes } from './routes/checks.ts';
import type { RouteContext } from './routes/context.ts';
import { registerHealth, registerOperatorRoutes } from './routes/operator.ts';
import { CheckPlacement } from './check-placement.ts';
import { verdictsOn } from './routes/verdicts-on.ts';
import { OriginBudget } from './origin-budget.ts';
import { WorkPool, type WorkPoolOptions } from './work/pool.ts';

export interface AppOptions {
  client: RobotsClient;
  metrics: ServiceMetrics;
  /** The shared store, when there is one (health reports its reachability). */
  redis?: RedisStore;
  /** Allow URLs on private, loopback and link-local addresses (tests, internal use). */
  allowPrivateAddresses?: boolean;
  /** Most URLs in one POST /v1/check or /v1/diff. Default 1,000. */
  maxBatch?: number;
  /**
   * New origins (robots.txt fetches) a client's requests may start per minute, as a token
   * bucket that deep; past it 429 with Retry-After. Default 1,000 (one largest batch); 0: no
   * limit.
   */
  newOriginsPerMinute?: number;
  /**
   * Bytes of fetched robots.txt files a client's requests may add to the store per minute
   * (the stored entries, as the store keeps them), as a token bucket that deep; past it 429
   * with Retry-After, as for new origins. Default 64 MiB (`STORE_BYTES_PER_MINUTE`).
   */
  storeBytesPerMinute?: number;
  /** Largest request body in bytes. Default 2 MiB (a 500 KiB robots.txt twice, and URLs). */
  bodyLimit?: number;
  /** Checks in flight for one batch request. Default 32. */
  concurrency?: number;
  /** Where the web tester's files are. Default: the built `tester/` area (`dist/tester`). */
  assetsDir?: string;
  /** Logging (pino's JSON lines on stdout): true at info, or `{ level }`. Default off. */
  logger?: boolean | { level: string };
  /** Most verdicts one request may ask for (`/v1/diff`: URLs × agents × 2). Default 100,000. */
  maxVerdicts?: number;
  /**
   * Most bytes of changes one `/v1/diff` answer lists, as JSON; past them the answer says
   * `truncated`, with the changes grouped. Default 4 MiB.
   */
  maxDiffBytes?: number;
  /** Worker threads for CPU-heavy work, with their deadline and queue. */
  work?: WorkPoolOptions;
  /**
   * Event-loop time a fetched file over 64 KiB may take for its checks, beyond 50 µs a check,
   * before its checks go to the worker threads (see CheckPlacement). Default 50 ms.
   */
  largeFileLoopMs?: number;
  /**
   * Time to receive a whole request (headers and body), and to receive its headers; a client
   * that sends slower is cut off (408). Defaults 30 s and 10 s. Idle keep-alive connections
   * close after 5 s.
   */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /**
   * How long requests in flight may take to be answered once the service is closing; what
   * is left is cut then. Default 10 s (`DRAIN_GRACE_MS`).
   */
  drainGraceMs?: number;
  /**
   * The routes served in place of the API, the operator's and the tester's (`/healthz` is
   * kept): how `repkit mcp --http` serves MCP with the service's access rules and bounds.
   */
  routes?: (context: RouteContext) => void;
  /** Token, Host names answered, rate limit (see AccessOptions). */
  access?: AccessOptions;
  /** The address the service listens on, for the default Host names. Default 127.0.0.1. */
  listenHost?: string;
}

/** A request id taken from a caller: letters, digits and `-_.:`, at most 128 of them. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The repkit HTTP service: JSON API under /v1, OpenAPI, health, metrics, the web tester at /. */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const { metrics } = options;
  const work = new WorkPool(options.work);
  let drain: Drain | undefined;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const app = fastifyOf(options, requestTimeout, headersTimeout, (made) => (drain = made));

  // Every answer, refused ones included, by route pattern (never the raw URL: bounded labels).
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // First of all hooks: an answer refused by access still names its request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  await registerAccess(app, options.access ?? {}, options.listenHost ?? '127.0.0.1');

  await app.register(swagger, { openapi: apiDocument(options) });

  // Only JSON bodies: text is not a request this API understands (a 415, not a 400 about types).
  app.removeContentTypeParser('text/plain');

  registerErrorAnswers(app);

  const context = routeContextOf(app, options, work, drain!);
  if (options.routes) {
    // Another surface on the service's house (MCP over HTTP): its access rules, budgets,
    // workers, metrics and shutdown, with its own routes and health.
    registerHealth(context, options.redis);
    options.routes(context);
  } else {
    registerCheckRoutes(context);
    registerBodyRoutes(context);
    registerOperatorRoutes(
      context,
      options.redis,
      options.assetsDir ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'tester'),
    );
  }

  // Closing answers what is in flight, but never waits on silent or idle connections, and
  // cuts what is left after the grace (see drainOf).
  app.addHook('preClose', (done) => {
    void drain?.begin(options.drainGraceMs);
    done();
  });
  app.addHook('onClose', () => work.close());
  return app;
}

/** The Fastify instance: request ids, Node's slow-client limits, JSON bodies only, no coercion. */
function fastifyOf(
  options: AppOptions,
  requestTimeout: number,
  headersTimeout: number,
  onDrain: (drain: Drain) => void,
): FastifyInstance {
  return Fastify({
    // Requests logged without the user info of URLs in their query (see log.ts).
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: { req: loggedRequest } }
      : false,
    // A caller's X-Request-Id is kept (when it is a plain token) and echoed, else one is made.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Node checks these limits every `connectionsCheckingInterval`: a slow client is cut off
    // within a second of its limit, however slowly it trickles bytes.
    serverFactory: (handler) => {
      const server = createServer(
        {
          requestTimeout,
          headersTimeout,
          keepAliveTimeout: 5_000,
          connectionsCheckingInterval: Math.min(1_000, headersTimeout),
        },
        handler,
      );
      onDrain(drainOf(server));
      return server;
    },
    bodyLimit: options.bodyLimit ?? 2 * 1024 * 1024,
    clientErrorHandler: answerClientError,
    // No type coercion: a number where text is expected is a 400, not a string.
    ajv: { customOptions: { allErrors: false, coerceTypes: false, removeAdditional: false } },
  });
}

/** The OpenAPI document's head: what the API is, where it is, and what it asks for. */
function apiDocument(
  options: AppOptions,
): NonNullable<Extract<SwaggerOptions, { openapi?: unknown }>['openapi']> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'repkit',
      version: '1',
      description: 'robots.txt checks as Google makes them: verdicts, explanations, lint and diff.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // Relative: the API is where this document is served from, however the service is reached.
    servers: [{ url: '/', description: 'this service' }],
    // With a token, every operation but health and readiness asks for it.
    ...(options.access?.token
      ? {
          components: {
            securitySchemes: {
              bearer: {
                type: 'http',
                scheme: 'bearer',
                description: 'The token the service was started with (--token, REPKIT_TOKEN)',
              },
            },
          },
          security: [{ bearer: [] }],
        }
      : // Said, not left out: no operation asks for credentials.
        { security: [] }),
  };
}

/** What every route is given: the client, the budgets, the workers, the verdicts. */
function routeContextOf(
  app: FastifyInstance,
  options: AppOptions,
  work: WorkPool,
  drain: Drain,
): RouteContext {
  const { client, metrics } = options;
  const placement = new CheckPlacement(options.largeFileLoopMs);
  const context: RouteContext = {
    app,
    client,
    metrics,
    work,
    placement,
    verdicts: verdictsOn({ client, metrics, work, placement }),
    maxBatch: options.maxBatch ?? 1_000,
    maxVerdicts: options.maxVerdicts ?? 100_000,
    maxDiffBytes: options.maxDiffBytes ?? 4 * 1024 * 1024,
    concurrency: options.concurrency ?? 32,
    originBudget:
      options.newOriginsPerMinute === 0
        ? undefined
        : new OriginBudget(options.newOriginsPerMinute ?? 1_000, options.storeBytesPerMinute),
    drain,
  };
  return context;
}
