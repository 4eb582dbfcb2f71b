/** `repkit usage`: robots.txt and the page together, each answer with where it comes from. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

let site: TestServer;
before(async () => {
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res
        .writeHead(200)
        .end(
          'User-agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: search=yes\n',
        );
    }
    const noai = req.url?.includes('noai') ? '<meta name="robots" content="noai">' : '';
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-usage': 'search=y' })
      .end(`<html><head>${noai}</head><body>x</body></html>`);
  });
});
after(() => site.close());

async function usage(path: string) {
  const result = await runCli(['usage', `${site.origin}${path}`, '--agent', 'GPTBot', '--json']);
  return {
    code: result.code,
    json: JSON.parse(result.stdout) as Record<
      string,
      { may?: boolean; preference?: string; statements?: { source: string }[] }
    >,
  };
}

test("the attach draft's paths: train-ai from the longest Content-Usage path, search from every source", async () => {
  const plain = await usage('/test');
  assert.equal(plain.code, 0);
  assert.deepEqual([plain.json.fetch!.may, plain.json.index!.may], [true, true]);
  assert.equal(plain.json['train-ai']!.preference, 'disallowed');
  assert.equal(plain.json.search!.preference, 'allowed');
  assert.deepEqual(
    plain.json.search!.statements!.map((s) => s.source),
    ['robots.txt Content-Signal: search=yes', 'Content-Usage header: search'],
  );
  assert.equal((await usage('/ai-ok/test')).json['train-ai']!.preference, 'allowed');
});

test('a noai meta tag disallows AI training whatever robots.txt allows; a blocked URL has no preference', async () => {
  assert.equal((await usage('/ai-ok/x')).json['train-ai']!.preference, 'allowed');
  const both = await usage('/ai-ok/noai');
  assert.equal(both.json['train-ai']!.preference, 'disallowed', 'any no wins');
  assert.deepEqual(
    both.json['train-ai']!.statements!.map((s) => s.source),
    ['robots.txt line 5: Content-Usage: /ai-ok/ train-ai=y', 'robots meta tag: noai'],
  );
  const blocked = await usage('/never/x');
  assert.equal(blocked.code, 1);
  assert.deepEqual(
    [blocked.json.fetch!.may, blocked.json['train-ai']!.preference],
    [false, 'unknown'],
  );
});
