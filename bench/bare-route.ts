/**
 * The service bench's peer: a minimal fastify route on its own process, answering a fixed
 * JSON body of the size of a check's answer. It does nothing per request but what fastify does,
 * so the service's requests/s over its requests/s is what repkit's own work costs.
 */
import Fastify from 'fastify';

const answer = {
  url: 'http://127.0.0.1:1/page1',
  agent: ['Googlebot'],
  allowed: true,
  line: 0,
  reason: 'no-matching-rule',
  robotsUrl: 'http://127.0.0.1:1/robots.txt',
  source: 'cache',
  status: 200,
  fetchedAt: 1764000000000,
  expiresAt: 1764086400000,
};

const app = Fastify({ logger: false });
app.get('/v1/check', async () => answer);
app.post('/v1/check', async () => ({ results: [answer] }));
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stderr.write(`serving on http://127.0.0.1:${port}\n`);
