import { Configuration, RequestQueue, log } from 'crawlee';
import { Deferrals } from '../src/crawlee/deferral.ts';
log.setLevel(log.LEVELS.OFF);
for (const n of [1000, 2000, 4000, 8000]) {
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const queue = await RequestQueue.open(`q${n}`, { config });
  await queue.addRequests(Array.from({ length: n }, (_, i) => ({ url: `http://a.test/p/${i}` })));
  const d = new Deferrals(() => {});
  const start = process.cpuUsage();
  let count = 0;
  for (;;) {
    const r = await queue.fetchNextRequest();
    if (!r) break;
    await d.putBack(queue, r, 60_000, 1000);
    count++;
  }
  const used = process.cpuUsage(start);
  console.log(n, count, ((used.user + used.system) / 1000 / count).toFixed(3), 'ms/deferral');
  d.clear(); await queue.drop();
}
