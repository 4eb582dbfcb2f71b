/**
 * Run as its own process (with --expose-gc) by the memory test: checks ORIGINS origins, each
 * serving a 500 KiB robots.txt, through one RobotsClient with the limits given on the command
 * line, then prints the client's accounting and the process's heap as JSON.
 */
import { MemoryStore } from '../../src/cache/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { clientSeam } from '../../src/fetch/internal.ts';
import { httpServer, lookupTo } from './servers.ts';

const [origins, parsedMiB, storeMiB] = process.argv.slice(2).map(Number) as [
  number,
  number,
  number,
];
let body = 'User-agent: *\n';
for (let i = 0; body.length < 500 * 1024; i++)
  body += `Disallow: /section-${i}/private-${i}*.html\n`;
const server = await httpServer((_req, res) => res.writeHead(200).end(body));
const port = new URL(server.origin).port;
const lookup = lookupTo('127.0.0.1');
const client = new RobotsClient({
  userAgent: 'MemoryBot/1.0',
  lookup,
  maxParsedBytes: parsedMiB * 1024 * 1024,
  store: new MemoryStore({ maxBytes: storeMiB * 1024 * 1024 }),
});
const gc = (globalThis as { gc?: () => void }).gc!;
gc();
const before = process.memoryUsage();
for (let i = 0; i < origins; i++) {
  await client.check(`http://o${i}.test:${port}/section-${i}/private-${i}x.html`);
}
gc();
const after = process.memoryUsage();
console.log(
  JSON.stringify({
    parsed: clientSeam(client).parsedUsage(),
    heapGrowth: after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers,
    rss: after.rss,
  }),
);
await client.close();
await server.close();
