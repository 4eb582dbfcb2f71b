import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import type { RedisStore } from '../../cache/redis-entry.ts';
import { registerSecurityHeaders } from '../access.ts';
import * as schema from '../schemas.ts';
import type { RouteContext } from './context.ts';
import { docsPage } from './docs.ts';

/**
 * `/healthz`: liveness, with the store's reachability (a process whose Redis is down is alive:
 * it answers from memory and defers what it cannot). `/readyz`: whether to send it traffic:
 * not while it stops, nor while the Redis it was started with is down.
 */
export function registerHealth(context: RouteContext, redis: RedisStore | undefined): void {
  context.app.get('/healthz', { schema: schema.health }, async () => {
    if (!redis) return { status: 'ok', redis: 'not-configured' };
    const up = await redis.ping();
    return { status: up ? 'ok' : 'degraded', redis: up ? 'up' : 'down' };
  });
  context.app.get('/readyz', { schema: schema.ready }, async (_request, reply) => {
    const store = redis ? ((await redis.ping()) ? 'up' : 'down') : 'not-configured';
    if (context.drain.stopping) return reply.code(503).send({ status: 'stopping', redis: store });
    if (store === 'down') return reply.code(503).send({ status: 'not-ready', redis: store });
    return { status: 'ready', redis: store };
  });
}

/** The operator's routes and the tester's files: health, metrics, OpenAPI and its `/docs`, `/` and its scripts. */
export function registerOperatorRoutes(
  context: RouteContext,
  redis: RedisStore | undefined,
  assets: string,
): void {
  const { app, metrics } = context;
  registerHealth(context, redis);

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // The tester's files, in a scope of their own with the security headers (see
  // registerSecurityHeaders: the API routes stay out of helmet's hook).
  void app.register(async (tester) => {
    await registerSecurityHeaders(tester);
    const asset =
      (file: string, type: string) => async (_request: unknown, reply: FastifyReply) => {
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
    tester.get('/', { schema: { hide: true } }, asset('index.html', 'text/html; charset=utf-8'));
    // The API for people, from the OpenAPI document itself.
    tester.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(docsPage(app.swagger() as Parameters<typeof docsPage>[0])),
    );
    tester.get(
      '/tester.js',
      { schema: { hide: true } },
      asset('tester.js', 'text/javascript; charset=utf-8'),
    );
    tester.get(
      '/tester-worker.js',
      { schema: { hide: true } },
      asset('tester-worker.js', 'text/javascript; charset=utf-8'),
    );
  });
}
