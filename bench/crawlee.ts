/**
 * A Crawlee crawl as its users run one: CheerioCrawler over 2,000 URLs of one loopback site
 * whose robots.txt disallows a tenth of them, three ways in the same run: with repkit
 * (`withRepkitRobots`), with Crawlee's own `respectRobotsTxtFile`, and with no robots.txt at
 * all. Pages handled per second; each way runs three times, taking turns, the median kept.
 */
import { createServer } from 'node:http';
import { BasicCrawler, CheerioCrawler, Configuration, RequestQueue, log } from 'crawlee';
import { withRepkitRobots } from '../src/crawlee/index.ts';
import { RobotsClient } from '../src/fetch/index.ts';
import { clientSeam } from '../src/fetch/internal.ts';

const URLS = 2_000;
const ROUNDS = 3;
export const CRAWLEE_OWN = "Crawlee's own robots.txt";
export const NO_ROBOTS = 'no robots.txt';

export async function benchCrawlee(
  record: (metric: string, peer: string, value: number) => void,
): Promise<void> {
  log.setLevel(log.LEVELS.OFF);
  const site = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('User-agent: *\nDisallow: /private/\n');
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<html><title>${req.url}</title><body>page</body></html>`);
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  const urls = Array.from(
    { length: URLS },
    (_, i) => `${origin}/${i % 10 === 0 ? 'private' : 'page'}/${i}`,
  );
  const Repkit = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
  const ways: Record<string, () => CheerioCrawler> = {
    repkit: () => new Repkit(options(true), fresh()),
    [CRAWLEE_OWN]: () => new CheerioCrawler(options(true), fresh()),
    [NO_ROBOTS]: () => new CheerioCrawler(options(false), fresh()),
  };
  let handled = 0;
  const options = (respectRobotsTxtFile: boolean) => ({
    respectRobotsTxtFile,
    maxConcurrency: 16,
    maxRequestRetries: 0,
    requestHandler: async () => void handled++,
  });
  const fresh = () => new Configuration({ persistStorage: false, purgeOnStart: true });
  const rates = new Map<string, number[]>(Object.keys(ways).map((w) => [w, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? Object.keys(ways) : Object.keys(ways).reverse();
      for (const way of order) {
        handled = 0;
        const crawler = ways[way]!();
        const start = performance.now();
        await crawler.run(urls);
        const seconds = (performance.now() - start) / 1000;
        await crawler.teardown();
        rates.get(way)!.push(handled / seconds);
      }
    }
  } finally {
    site.close();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  for (const [way, values] of rates) {
    record(
      `Crawlee pages/s (CheerioCrawler, ${URLS.toLocaleString('en')} URLs, one loopback site)`,
      way,
      median(values),
    );
  }
}

/**
 * What deferring costs as the queue grows: one host whose Crawl-delay makes every queued URL
 * wait, with 1,000, 5,000 and 20,000 URLs already in the queue. CPU of this process from the
 * first admission to the last, per deferred request: flat when deferral costs the same
 * whatever the number waiting (it cost O(n) each while waiting requests stayed locked in
 * Crawlee's queue, whose every refill walked them); then the CPU a second of waiting costs.
 */
export async function benchCrawleeDeferral(
  record: (metric: string, peer: string, value: number) => void,
  sizes: readonly number[] = [1_000, 5_000, 20_000],
): Promise<void> {
  log.setLevel(log.LEVELS.OFF);
  const site = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('User-agent: *\nCrawl-delay: 60\n');
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>page</body></html>');
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  const perRequest: number[] = [];
  try {
    // A first small crawl, not recorded, warms the code up.
    for (const [size, recorded] of [
      [500, false] as const,
      ...sizes.map((n) => [n, true] as const),
    ]) {
      let admitted = 0;
      let cpuAtFirst: NodeJS.CpuUsage | undefined;
      let cpuAtLast: NodeJS.CpuUsage | undefined;
      // Admissions take the host's turn through the client's seam, with the state at hand.
      const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
      const seam = clientSeam(client);
      const turnFor = seam.turnFor;
      seam.turnFor = async (state) => {
        const turn = await turnFor(state);
        if (++admitted === 1) cpuAtFirst = process.cpuUsage();
        if (admitted === size) cpuAtLast = process.cpuUsage(cpuAtFirst);
        return turn;
      };
      const config = new Configuration({ persistStorage: false, purgeOnStart: false });
      const queue = await RequestQueue.open(`deferral-${size}`, { config });
      // addRequests (unlike addRequestsBatched) adds them all before it resolves.
      await queue.addRequests(
        Array.from({ length: size }, (_, i) => ({ url: `${origin}/p/${i}` })),
      );
      const Repkit = withRepkitRobots(BasicCrawler, { userAgent: 'ExampleBot/1.0', client });
      const crawler = new Repkit(
        {
          respectRobotsTxtFile: true,
          requestQueue: queue,
          maxConcurrency: 4,
          requestHandler: async () => {},
        },
        config,
      );
      const run = crawler.run();
      const since = Date.now();
      while (cpuAtLast === undefined && Date.now() - since < 600_000) {
        await new Promise((done) => setTimeout(done, 20));
      }
      // Then the crawl waits for its next turn (a minute): what does waiting cost, once the
      // garbage of the burst is collected (2 s)?
      const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
      if (cpuAtLast !== undefined && recorded) await pause(2_000);
      const idleFrom = process.cpuUsage();
      if (cpuAtLast !== undefined && recorded) await pause(3_000);
      const idle = process.cpuUsage(idleFrom);
      crawler.autoscaledPool?.abort();
      await run;
      await queue.drop();
      await client.close();
      if (cpuAtLast === undefined)
        throw new Error(`${size} URLs were not all admitted in 10 minutes`);
      const ms = (cpuAtLast.user + cpuAtLast.system) / 1000 / (size - 1);
      if (!recorded) continue;
      perRequest.push(ms);
      record(
        `ms CPU per deferred request, ${size.toLocaleString('en')} queued (Crawlee)`,
        'repkit',
        ms,
      );
      record(
        `ms CPU per second while ${size.toLocaleString('en')} deferred requests wait (Crawlee)`,
        'repkit',
        (idle.user + idle.system) / 1000 / 3,
      );
    }
  } finally {
    site.close();
  }
  record(
    `CPU per deferred request, ${sizes.at(-1)!.toLocaleString('en')} queued ÷ ${sizes[0]!.toLocaleString('en')} (flat: 1)`,
    'repkit',
    perRequest.at(-1)! / perRequest[0]!,
  );
}
