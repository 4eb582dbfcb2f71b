import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

let server: TestServer;
before(async () => {
  server = await httpServer((req, res) => {
    if (req.url === '/robots.txt')
      return void res.writeHead(200).end('User-agent: *\nDisallow: /private/\n');
    if (req.url === '/article') {
      return void res
        .writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'googlebot: noarchive' })
        .end(
          '<html><head><meta name="robots" content="max-snippet:40, nofollow"></head><body>' +
            'x'.repeat(100_000) +
            '</body></html>',
        );
    }
    if (req.url === '/gone') {
      return void res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<html><head></head></html>');
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head></head></html>');
  });
});
after(() => server.close());

describe('repkit meta', () => {
  test('an HTML file with --header: the policy, where each decision came from', async () => {
    const result = await runCli([
      'meta',
      'test/fixtures/meta/shop-product.html',
      '--agent',
      'Googlebot',
      '--header',
      'X-Robots-Tag: googlebot: nofollow',
    ]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /may follow links no/);
    assert.match(result.stdout, /follow\s+false\s+← X-Robots-Tag \(googlebot\): nofollow/);
    assert.match(
      result.stdout,
      /imageIndex\s+false\s+← <meta name="googlebot"> line 5: noimageindex/,
    );
  });

  test('a URL: robots.txt first, then the page head and headers', async () => {
    const result = await runCli([
      'meta',
      `${server.origin}/article`,
      '--agent',
      'Googlebot',
      '--json',
    ]);
    assert.equal(result.code, 0);
    const json = JSON.parse(result.stdout) as {
      fetch: boolean;
      index: boolean;
      follow: boolean;
      page: { policy: Record<string, unknown>; html: { stoppedAt: string } };
    };
    assert.deepEqual([json.fetch, json.index, json.follow], [true, true, false]);
    assert.deepEqual(
      [json.page.policy.maxSnippet, json.page.policy.archive, json.page.html.stoppedAt],
      [40, false, 'head-end'],
    );
  });

  test('a URL robots.txt disallows is not requested at all; exit 1', async () => {
    const before = server.requests.filter((r) => r.path === '/private/page').length;
    const result = await runCli(['meta', `${server.origin}/private/page`, '--agent', 'Googlebot']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /may fetch\s+no\s+\(robots\.txt line 2\)/);
    // Blocked is not "noindex": the content is never read, but the URL may still be indexed.
    assert.match(
      result.stdout,
      /may index\s+no \(not its content; the bare URL may still be indexed from links\)/,
    );
    assert.match(result.stdout, /a noindex too\) are never read/);
    assert.equal(server.requests.filter((r) => r.path === '/private/page').length, before);
  });

  test('a page answering 404 may not be indexed; an unset field reads "none", never "undefined"', async () => {
    const result = await runCli(['meta', `${server.origin}/gone`, '--agent', 'Googlebot']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /may index\s+no/);
    assert.match(
      result.stdout,
      /the page answered HTTP 404: search engines do not index error pages/,
    );
    assert.match(result.stdout, /unavailableAfter\s+none/);
    assert.doesNotMatch(result.stdout, /undefined/);
  });

  test('a missing file is an input error', async () => {
    const result = await runCli(['meta', 'no-such.html', '--agent', 'x']);
    assert.deepEqual(
      [result.code, result.stderr.trim()],
      [2, 'repkit: cannot read no-such.html: no such file'],
    );
  });
});
