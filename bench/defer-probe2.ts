import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { withRepkitRobots } from '../src/crawlee/index.ts';
import { Deferrals } from '../src/crawlee/deferral.ts';
let deferred = 0; let allAt = 0; let want = 0;
const orig = Deferrals.prototype.putBack;
Deferrals.prototype.putBack = async function (...a: any[]) { const r = await (orig as any).apply(this, a); if (++deferred === want) allAt = performance.now(); return r; };
log.setLevel(log.LEVELS.OFF);
const site = createServer((req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 5\n');
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>x</title>');
});
await new Promise<void>((d) => site.listen(0, '127.0.0.1', d));
const origin = `http://127.0.0.1:${(site.address() as any).port}`;
const Repkit = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
for (const n of (process.argv[2] ?? '1000,3000').split(',').map(Number)) {
  let handled = 0; deferred = 0; allAt = 0; want = n - 1;
  const crawler = new Repkit({ maxConcurrency: 16, maxRequestRetries: 0, requestHandler: async () => void handled++ }, new Configuration({ persistStorage: false, purgeOnStart: true }));
  const h = monitorEventLoopDelay({ resolution: 20 }); h.enable();
  const start = process.cpuUsage(); const t0 = performance.now();
  setTimeout(() => void crawler.autoscaledPool?.abort(), 20_000);
  await crawler.run(Array.from({ length: n }, (_, i) => `${origin}/p/${i}`));
  const used = process.cpuUsage(start); h.disable();
  console.log(n, 'handled', handled, 'cpu s', ((used.user + used.system) / 1e6).toFixed(1), 'wall', ((performance.now() - t0) / 1000).toFixed(1), 'max stall ms', (h.max / 1e6).toFixed(0), 'deferred', deferred, 'all deferred at s', ((allAt - t0) / 1000).toFixed(1));
  await crawler.teardown();
}
site.close();
