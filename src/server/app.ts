import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { RedisStore } from '../cache/redis.ts';
import { lint, parse, type ProfileName } from '../core/index.ts';
import { InvalidUrlError, type CheckResult, type RobotsClient } from '../fetch/index.ts';
import { assertPublicHost, PrivateAddressError } from './address-guard.ts';
import type { ServiceMetrics } from './metrics.ts';
import * as schema from './schemas.ts';

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
  /** Where the web tester's files are. Default: `tester/` beside this module. */
  assetsDir?: string;
  logger?: boolean;
}

/** The repkit HTTP service: JSON API under /v1, OpenAPI, health, metrics, the web tester at /. */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const { client, metrics } = options;
  const maxBatch = options.maxBatch ?? 1_000;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 2 * 1024 * 1024,
    // No type coercion: a number where text is expected is a 400, not a string.
    ajv: { customOptions: { allErrors: false, coerceTypes: false, removeAdditional: false } },
  });

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
    if (error instanceof BadRequest)
      return reply
        .code(400)
        .send({ error: error.code, field: error.field, message: error.message });
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
      throw new BadRequest(
        'invalid-url',
        field,
        `${field}: not an absolute URL: ${JSON.stringify(url)}`,
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new BadRequest(
        'invalid-url',
        field,
        `${field}: only http and https URLs can be fetched`,
      );
    }
    if (!options.allowPrivateAddresses) {
      try {
        await assertPublicHost(parsed.hostname);
      } catch (error) {
        if (error instanceof PrivateAddressError)
          throw new BadRequest('private-address', field, `${field}: ${error.message}`);
        // Unresolvable hosts are fetch failures, answered as Google answers them.
      }
    }
    return parsed;
  };

  const checkOne = async (
    url: string,
    field: string,
    agent: string | string[] | undefined,
  ): Promise<CheckResult> => {
    await checkable(url, field);
    try {
      const result = await client.check(url, agent === undefined ? {} : { agent });
      metrics.check(result);
      return result;
    } catch (error) {
      if (error instanceof InvalidUrlError)
        throw new BadRequest('invalid-url', field, `${field}: ${error.message}`);
      throw error;
    }
  };

  app.get('/v1/check', { schema: schema.checkOne }, async (request) => {
    const { url, agent } = request.query as { url: string; agent?: string };
    return present(await checkOne(url, 'querystring.url', agent));
  });

  app.post('/v1/check', { schema: schema.checkMany(maxBatch) }, async (request) => {
    const { urls, agent } = request.body as { urls: string[]; agent?: string | string[] };
    const results = await mapLimit(urls, options.concurrency ?? 32, (url, i) =>
      checkOne(url, `body.urls.${i}`, agent),
    );
    return { results: results.map((r) => present(r)) };
  });

  app.post('/v1/explain', { schema: schema.explain }, async (request) => {
    const { robots, url, agent, profile } = request.body as {
      robots: string;
      url: string;
      agent: string | string[];
      profile?: ProfileName;
    };
    return parse(robots, { profile: profile ?? 'google' }).explain(url, agent);
  });

  app.post('/v1/lint', { schema: schema.lint }, async (request) =>
    lint((request.body as { robots: string }).robots),
  );

  app.post('/v1/diff', { schema: schema.diff(maxBatch) }, async (request) => {
    const body = request.body as {
      old: string;
      new: string;
      urls: string[];
      agents: string[];
      profile?: ProfileName;
    };
    const profile = body.profile ?? 'google';
    const [before, after] = [parse(body.old, { profile }), parse(body.new, { profile })];
    const changes = [];
    for (const agent of body.agents) {
      for (const url of body.urls) {
        const was = before.verdict(url, agent);
        const now = after.verdict(url, agent);
        if (was.allowed !== now.allowed) changes.push({ url, agent, before: was, after: now });
      }
    }
    return { changes, checked: body.urls.length * body.agents.length };
  });

  app.get('/v1/robots', { schema: schema.robots }, async (request) => {
    const { url } = request.query as { url: string };
    await checkable(url, 'querystring.url');
    const state = await client.robotsFor(url);
    const { entry } = state;
    const used = entry.outcome === 'error' && entry.lastGood ? entry.lastGood : entry;
    return {
      robotsUrl: state.location.robotsUrl,
      outcome: entry.outcome,
      status: entry.status,
      source: state.source,
      ...(entry.error ? { error: entry.error } : {}),
      body: Buffer.from(used.body ?? '', 'base64').toString('utf8'),
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

  const assets = options.assetsDir ?? join(dirname(fileURLToPath(import.meta.url)), 'tester');
  const asset =
    (file: string, type: string) =>
    async (_request: unknown, reply: import('fastify').FastifyReply) => {
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

  return app;
}

/** A 400 with the request field it is about. */
class BadRequest extends Error {
  constructor(
    readonly code: string,
    readonly field: string,
    message: string,
  ) {
    super(message);
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
