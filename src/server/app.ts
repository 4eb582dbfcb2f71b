import { BadRequestError } from './errors.ts';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import swagger from '@fastify/swagger';
import { createServer } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { RedisStore } from '../cache/redis-entry.ts';
import { usedEntry } from '../cache/internal.ts';
import { requestTarget, type Explanation, type ProfileName } from '../core/index.ts';
import {
  InvalidUrlError,
  RefusedAddressError,
  type CheckResult,
  type RobotsClient,
  type RobotsState,
} from '../fetch/index.ts';
import { registerAccess, type AccessOptions } from './access.ts';
import type { ServiceMetrics } from './metrics.ts';
import * as schema from './schemas.ts';
import { WorkPool, WorkRefusedError, type WorkPoolOptions } from './work/pool.ts';
import type { DiffTask } from './work/tasks.ts';

/** Fetched files larger than this are checked on a worker thread, not on the event loop. */
const LARGE_BODY = 64 * 1024;

export interface AppOptions {
  client: RobotsClient;
  metrics: ServiceMetrics;
  /** The shared store, when there is one (health reports its reachability). */
  redis?: RedisStore;
  /** Allow URLs on private, loopback and link-local addresses (tests, internal use). */
  allowPrivateAddresses?: boolean;
  /** Most URLs in one POST /v1/check or /v1/diff. Default 1,000. */
  maxBatch?: number;
  /** Largest request body in bytes. Default 2 MiB (a 500 KiB robots.txt twice, and URLs). */
  bodyLimit?: number;
  /** Checks in flight for one batch request. Default 32. */
  concurrency?: number;
  /** Where the web tester's files are. Default: the built `tester/` area (`dist/tester`). */
  assetsDir?: string;
  logger?: boolean;
  /** Most verdicts one request may ask for (`/v1/diff`: URLs × agents × 2). Default 100,000. */
  maxVerdicts?: number;
  /** Worker threads for CPU-heavy work, with their deadline and queue. */
  work?: WorkPoolOptions;
  /**
   * Time to receive a whole request (headers and body), and to receive its headers; a client
   * that sends slower is cut off (408). Defaults 30 s and 10 s. Idle keep-alive connections
   * close after 5 s.
   */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** Token, Host names answered, rate limit (see AccessOptions). */
  access?: AccessOptions;
  /** The address the service listens on, for the default Host names. Default 127.0.0.1. */
  listenHost?: string;
}

/** The repkit HTTP service: JSON API under /v1, OpenAPI, health, metrics, the web tester at /. */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const { client, metrics } = options;
  const maxBatch = options.maxBatch ?? 1_000;
  const maxVerdicts = options.maxVerdicts ?? 100_000;
  const work = new WorkPool(options.work);
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const app = Fastify({
    logger: options.logger ?? false,
    // Node checks these limits every `connectionsCheckingInterval`: a slow client is cut off
    // within a second of its limit, however slowly it trickles bytes.
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout,
          headersTimeout,
          keepAliveTimeout: 5_000,
          connectionsCheckingInterval: Math.min(1_000, headersTimeout),
        },
        handler,
      ),
    bodyLimit: options.bodyLimit ?? 2 * 1024 * 1024,
    // No type coercion: a number where text is expected is a 400, not a string.
    ajv: { customOptions: { allErrors: false, coerceTypes: false, removeAdditional: false } },
  });

  // Every answer, refused ones included, by route pattern (never the raw URL: bounded labels).
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });

  await registerAccess(app, options.access ?? {}, options.listenHost ?? '127.0.0.1');

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'repkit',
        version: '1',
        description:
          'robots.txt checks as Google makes them: verdicts, explanations, lint and diff.',
      },
    },
  });

  // Only JSON bodies: text is not a request this API understands (a 415, not a 400 about types).
  app.removeContentTypeParser('text/plain');

  // Unknown routes and wrong methods answer in the API's own shape, with where to look.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = ['GET', 'POST'].filter((method) => app.hasRoute({ method, url: path }));
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({
          error: 'method-not-allowed',
          message: `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`,
        });
    }
    return reply.code(404).send({
      error: 'not-found',
      message: `no such route: ${request.method} ${path} (the API is under /v1; see /openapi.json)`,
    });
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.validation) {
      const first = error.validation[0]!;
      const missing = (first.params as { missingProperty?: string }).missingProperty;
      const path = [
        error.validationContext,
        ...first.instancePath.split('/').filter(Boolean),
        missing,
      ]
        .filter(Boolean)
        .join('.');
      return reply
        .code(400)
        .send({ error: 'invalid-request', field: path, message: `${path}: ${first.message}` });
    }
    if (error instanceof BadRequestError)
      return reply
        .code(400)
        .send({ error: error.reason, field: error.field, message: error.message });
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) {
      return reply.code(415).send({
        error: 'unsupported-media-type',
        message: `send the body as application/json (got ${JSON.stringify(_request.headers['content-type'] ?? 'none')})`,
      });
    }
    if (error instanceof WorkRefusedError) {
      if (error.reason === 'busy') reply.header('retry-after', '1');
      return reply.code(error.reason === 'busy' ? 429 : 413).send({
        error: error.reason === 'busy' ? 'busy' : 'too-much-work',
        message: error.message,
      });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) app.log.error(error);
    return reply.code(status).send({
      error: error.code ?? 'error',
      message: status >= 500 ? 'internal error' : error.message,
    });
  });

  /** Checks that a URL may be fetched by the service; the field name goes into the 400. */
  const checkable = async (url: string, field: string): Promise<URL> => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new BadRequestError(
        'invalid-url',
        field,
        `${field}: not an absolute URL: ${JSON.stringify(url)}`,
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new BadRequestError(
        'invalid-url',
        field,
        `${field}: only http and https URLs can be fetched`,
      );
    }
    // The client refuses the addresses at the socket on every hop; this only turns a refused
    // first host into a clear 400, without DNS for an origin whose file is at hand.
    try {
      await client.preflight(url);
    } catch (error) {
      if (error instanceof RefusedAddressError)
        throw new BadRequestError(
          'private-address',
          field,
          `${field}: ${error.message}; start the service with --allow-private-addresses to allow it`,
        );
      if (error instanceof InvalidUrlError)
        throw new BadRequestError('invalid-url', field, `${field}: ${error.message}`);
      throw error;
    }
    return parsed;
  };

  /** The robots.txt state for a URL (fetched or cached); a bad URL is a 400 on `field`. */
  const stateFor = async (url: string, field: string): Promise<RobotsState> => {
    await checkable(url, field);
    try {
      return await client.robotsFor(url);
    } catch (error) {
      if (error instanceof InvalidUrlError)
        throw new BadRequestError('invalid-url', field, `${field}: ${error.message}`);
      throw error;
    }
  };

  /**
   * Verdicts for URLs with their states: small files on the event loop (a check costs
   * O(path + pattern) per candidate rule), each large file's URLs in one worker task.
   */
  const verdicts = async (
    urls: readonly string[],
    states: readonly RobotsState[],
    agent: string | string[] | undefined,
    from: string,
  ): Promise<CheckResult[]> => {
    // Names are read as robots.txt names crawlers (`Googlebot/2.1` → `Googlebot`), and the
    // response says so (`agent`, `agentNotes`).
    const { agents, notes } = client.names(agent);
    const explanations = new Array<Explanation | undefined>(urls.length);
    const large = new Map<string, number[]>();
    states.forEach((state, i) => {
      if (!state.robots || state.robots.bytes.read <= LARGE_BODY) return;
      const key = `${state.location.origin} ${usedEntry(state.entry).fetchedAt}`;
      const indexes = large.get(key);
      if (indexes) indexes.push(i);
      else large.set(key, [i]);
    });
    // At most the client's share of the workers at once: a request's own large files wait
    // their turn instead of being refused for its shape.
    await mapLimit([...large], work.share, async ([key, indexes]) => {
      const found = await work.run(
        'checks',
        {
          key,
          body: Buffer.from(usedEntry(states[indexes[0]!]!.entry).body ?? '', 'base64'),
          profile: client.profile,
          maxBytes: client.maxBytes,
          // The worker explains each URL as it will be requested, as the client's verdicts do.
          urls: indexes.map((i) => requestTarget(urls[i]!)?.url ?? urls[i]!),
          agents: [...client.agentsFor(states[indexes[0]!]!, agents)],
        },
        from,
      );
      indexes.forEach((index, k) => (explanations[index] = found[k]));
    });
    return urls.map((url, i) => {
      const result = client.verdict(url, states[i]!, agents, explanations[i], notes);
      metrics.check(result);
      return result;
    });
  };

  app.get('/v1/usage', { schema: schema.usage }, async (request) => {
    const { url, agent } = request.query as { url: string; agent?: string | string[] };
    // The robots.txt first (and the address guard on the host); the tdmrep.json and the page
    // are fetched by the client's own guarded connections, only where robots.txt allows.
    await stateFor(url, 'querystring.url');
    return client.usage(url, agent === undefined ? {} : { agent });
  });

  app.get('/v1/check', { schema: schema.checkOne }, async (request) => {
    const { url, agent } = request.query as { url: string; agent?: string | string[] };
    const state = await stateFor(url, 'querystring.url');
    return present((await verdicts([url], [state], agent, clientOf(request)))[0]!);
  });

  app.post('/v1/check', { schema: schema.checkMany(maxBatch) }, async (request) => {
    const { urls, agent } = request.body as { urls: string[]; agent?: string | string[] };
    const states = await mapLimit(urls, options.concurrency ?? 32, (url, i) =>
      stateFor(url, `body.urls.${i}`),
    );
    return {
      results: (await verdicts(urls, states, agent, clientOf(request))).map((r) => present(r)),
    };
  });

  app.post('/v1/explain', { schema: schema.explain }, async (request) => {
    const { robots, url, agent, profile } = request.body as {
      robots: string;
      url: string;
      agent: string | string[];
      profile?: ProfileName;
    };
    return work.run(
      'explain',
      { robots, url, agent, profile: profile ?? 'google' },
      clientOf(request),
    );
  });

  app.post('/v1/lint', { schema: schema.lint }, async (request) =>
    work.run('lint', { robots: (request.body as { robots: string }).robots }, clientOf(request)),
  );

  app.post('/v1/diff', { schema: schema.diff(maxBatch) }, async (request) => {
    const body = request.body as Omit<DiffTask, 'profile' | 'maxAgents'> & {
      profile?: ProfileName;
    };
    const perAgent = body.urls.length * 2;
    const budget = (agents: number) =>
      new WorkRefusedError(
        'budget',
        `body: ${body.urls.length} URLs × ${agents} agents × 2 files is ${perAgent * agents} verdicts; one request may ask for ${maxVerdicts}`,
      );
    if (body.agents && perAgent * body.agents.length > maxVerdicts) {
      throw budget(body.agents.length);
    }
    const task: DiffTask = {
      ...body,
      profile: body.profile ?? 'google',
      maxAgents: Math.floor(maxVerdicts / perAgent),
    };
    const answer = await work.run('diff', task, clientOf(request));
    if ('tooManyAgents' in answer) throw budget(answer.tooManyAgents);
    return answer;
  });

  app.get('/v1/robots', { schema: schema.robots }, async (request) => {
    const { url } = request.query as { url: string };
    const state = await stateFor(url, 'querystring.url');
    const { entry } = state;
    const used = usedEntry(state.entry);
    // A robots.txt that redirects elsewhere is read from where it lands, as Google does; but
    // the body of whatever page that is is not handed out: the service is no GET proxy.
    const landed = used.chain.at(-1);
    const elsewhere = landed !== undefined && !isRobotsTxtUrl(landed);
    return {
      robotsUrl: state.location.robotsUrl,
      outcome: entry.outcome,
      status: entry.status,
      source: state.source,
      ...(entry.error ? { error: entry.error } : {}),
      ...(elsewhere
        ? { bodyOmitted: `the robots.txt redirected to ${landed}, which is not a /robots.txt` }
        : { body: Buffer.from(used.body ?? '', 'base64').toString('utf8') }),
    };
  });

  app.get('/healthz', { schema: schema.health }, async () => {
    if (!options.redis) return { status: 'ok', redis: 'not-configured' };
    const up = await options.redis.ping();
    return { status: up ? 'ok' : 'degraded', redis: up ? 'up' : 'down' };
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const assets = options.assetsDir ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'tester');
  const asset =
    (file: string, type: string) =>
    async (_request: unknown, reply: import('fastify').FastifyReply) => {
      await reply.helmet();
      try {
        return reply
          .type(type)
          .header('cache-control', 'no-cache')
          .send(await readFile(join(assets, file)));
      } catch {
        return reply
          .code(404)
          .send({ error: 'not-found', message: `${file} is not built (run npm run build)` });
      }
    };
  app.get('/', { schema: { hide: true } }, asset('index.html', 'text/html; charset=utf-8'));
  app.get(
    '/tester.js',
    { schema: { hide: true } },
    asset('tester.js', 'text/javascript; charset=utf-8'),
  );
  app.get(
    '/tester-worker.js',
    { schema: { hide: true } },
    asset('tester-worker.js', 'text/javascript; charset=utf-8'),
  );

  app.addHook('onClose', () => work.close());
  return app;
}

/** Who a request is from, for fair shares of the workers: its address. */
function clientOf(request: { ip: string }): string {
  return request.ip;
}

function isRobotsTxtUrl(url: string): boolean {
  try {
    return new URL(url).pathname === '/robots.txt';
  } catch {
    return false;
  }
}

/** A check as the API returns it: the verdict fields at the top level. */
function present(result: CheckResult) {
  const { explanation: _explanation, ...rest } = result;
  return rest;
}

async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
