import { httpServer, type TestServer } from '../helpers/servers.ts';

/** A site whose robots.txt redirects (301) to the file the CLI tests read. */
export function redirectedRobotsSite(): Promise<TestServer> {
  return httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(301, { location: '/real-robots.txt' }).end();
    }
    if (req.url === '/real-robots.txt') {
      return void res
        .writeHead(200, { 'cache-control': 'max-age=7200', 'content-type': 'text/plain' })
        .end(
          'User-agent: *\nDisallow: /private/\nCrawl-delay: 3\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/s.xml\n',
        );
    }
    res.writeHead(404).end();
  });
}
