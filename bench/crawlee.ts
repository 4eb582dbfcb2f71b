/**
 * A Crawlee crawl as its users run one: CheerioCrawler over 2,000 URLs of one loopback site
 * whose robots.txt disallows a tenth of them, three ways in the same run: with repkit
 * (`withRepkitRobots`), with Crawlee's own `respectRobotsTxtFile`, and with no robots.txt at
 * all. Pages handled per second; each way runs three times, taking turns, the median kept.
 */
import { createServer } from 'node:http';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { withRepkitRobots } from '../src/crawlee/index.ts';

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
