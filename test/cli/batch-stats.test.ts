/**
 * `repkit batch` fetches each origin's robots.txt once whatever the input order, and
 * `--stats` says so: URLs, origins, fetches, and what the cache kept and let go.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const servers: TestServer[] = [];
before(async () => {
  // 400 origins: 50 ports on each of eight loopback addresses.
  for (let host = 1; host <= 8; host++) {
    for (let i = 0; i < 50; i++) {
      servers.push(
        await httpServer((req, res) => {
          if (req.url === '/robots.txt') {
            return void res.writeHead(200).end(`User-agent: *\nDisallow: /private${i % 3}/\n`);
          }
          res.writeHead(404).end();
        }, `127.0.0.${host}`),
      );
    }
  }
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

test('batch --stats: 2,000 URLs over 400 origins in mixed order, each robots.txt fetched once', async () => {
  const urls: string[] = [];
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < servers.length; i++) {
      // A different order each round: input order must not cost fetches.
      const server = servers[(i * 7 + round * 131) % servers.length]!;
      urls.push(`${server.origin}/private${round % 3}/page${round}`);
    }
  }
  const result = await runCli(['batch', '--agent', 'ExampleBot', '--stats'], {
    stdin: urls.join('\n') + '\n',
  });
  const records = result.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(records.length, urls.length);
  for (const server of servers) {
    assert.equal(server.requests.filter((r) => r.path === '/robots.txt').length, 1, server.origin);
  }
  assert.match(
    result.stderr,
    /^repkit batch: 2000 URLs, 400 origins, 400 robots\.txt fetches; cache 400 entries, [\d.]+ MiB, 0 evicted while fresh$/m,
  );
});
