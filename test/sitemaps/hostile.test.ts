/**
 * Hostile sitemaps, each hitting one bound: DTDs (XXE, billion laughs, a DOCTYPE after 4 KiB
 * of padding), entities never declared, a gzip bomb, too many URLs or sitemaps in a file,
 * indexes nested ten deep, too many sitemaps or entries in a read, text or nesting without
 * end, corrupt gzip, a file cut short, an HTML page. Each ends in a typed `SitemapError`
 * saying why and where, after the entries read before it; none crashes or stops silently.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { createGzip, gzipSync } from 'node:zlib';
import type { TestServer } from '../helpers/servers.ts';
import { SITEMAP_DEFAULTS, type SitemapError } from '../../src/sitemaps/index.ts';
import { readAll, site, sitemapIndex, testClient, urlset } from './sites.ts';

const servers: TestServer[] = [];
const clients: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all([...clients.map((c) => c.close()), ...servers.map((s) => s.close())]);
});
async function serve(files: Parameters<typeof site>[0]): Promise<TestServer> {
  const server = await site(files);
  servers.push(server);
  return server;
}
function client() {
  const made = testClient();
  clients.push(made);
  return made;
}
const failure = (error: unknown) => error as SitemapError;

/** gzip of `repeat` copies of `unit`, compressed as a stream (the whole is never in memory). */
async function gzipOfRepeats(unit: string, repeat: number, head = '', tail = ''): Promise<Buffer> {
  const piece = Buffer.from(unit.repeat(1024));
  const source = Readable.from(
    (function* () {
      yield Buffer.from(head);
      for (let i = 0; i < repeat / 1024; i++) yield piece;
      yield Buffer.from(tail);
    })(),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of source.pipe(createGzip({ level: 9 }))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('XXE, billion laughs, and a DOCTYPE after 4 KiB of padding: refused, naming the line', async () => {
  const xxe = `<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<urlset><url><loc>&xxe;</loc></url></urlset>`;
  const lol = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('\n')}\n]>\n<urlset><url><loc>&lol9;</loc></url></urlset>`;
  const padded = `<?xml version="1.0"?>\n<!--${' pad'.repeat(1100)}-->\n<!DOCTYPE urlset SYSTEM "http://127.0.0.1:1/evil.dtd">\n<urlset/>`;
  for (const [name, body, line] of [
    ['xxe', xxe, 2],
    ['lol', lol, 13],
    ['padded', padded, 3],
  ] as const) {
    const { entries, error } = await readAll(Buffer.from(body), {});
    assert.deepEqual(entries, [], name);
    assert.equal(failure(error).reason, 'doctype', name);
    assert.equal(failure(error).line, line, name);
    assert.ok(failure(error).offset! > (name === 'padded' ? 4096 : 0), name);
  }
});

test('an entity never declared is malformed; what came before it is handed out first', async () => {
  const body = urlset(['https://example.com/a']).replace(
    '</urlset>',
    '<url><loc>&xxe;</loc></url></urlset>',
  );
  const { entries, error } = await readAll(Buffer.from(body), {});
  assert.deepEqual(
    entries.map((e) => e.url),
    ['https://example.com/a'],
  );
  assert.equal(failure(error).reason, 'malformed');
  assert.equal(failure(error).line, 4);
});

test('a gzip bomb stops at maxFileBytes decoded, counted as it inflates', async () => {
  // 64 MiB of comments (markup every 1 KiB) inflate from about 64 KiB.
  const bomb = await gzipOfRepeats(`<!--${'x'.repeat(1017)}-->`, 64 * 1024, '<urlset>');
  assert.ok(bomb.length < 1024 * 1024, `${bomb.length} bytes compressed`);
  const s = await serve({ '/bomb.xml.gz': { body: bomb, type: 'application/gzip' } });
  const { error } = await readAll(`${s.origin}/bomb.xml.gz`, { client: client() });
  assert.equal(failure(error).reason, 'file-too-large');
  const offset = failure(error).offset!;
  assert.ok(
    offset > SITEMAP_DEFAULTS.maxFileBytes && offset < SITEMAP_DEFAULTS.maxFileBytes + 1024 * 1024,
    `${offset}`,
  );
  const given = await readAll(bomb, { maxFileBytes: 1024 * 1024 });
  assert.equal(failure(given.error).reason, 'file-too-large');
});

test('too many URLs in a file, or sitemaps in an index: the first ones, then the error', async () => {
  const urls = Array.from({ length: 150 }, (_, i) => `https://example.com/${i}`);
  const many = await readAll(Buffer.from(urlset(urls)), { maxUrlsPerFile: 100 });
  assert.equal(many.entries.length, 100);
  assert.equal(failure(many.error).reason, 'too-many-entries');
  const index = await readAll(Buffer.from(sitemapIndex(urls)), { maxSitemapsPerIndex: 100 });
  assert.equal(failure(index.error).reason, 'too-many-entries');
  const text = await readAll(Buffer.from(urls.join('\n')), { maxUrlsPerFile: 100 });
  assert.equal(text.entries.length, 100);
  assert.equal(failure(text.error).reason, 'too-many-entries');
});

test('indexes nested ten deep: maxDepth levels are read, the rest reported', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`/level${i}.xml`] = sitemapIndex([`/level${i + 1}.xml`]);
  files['/level10.xml'] = urlset(['/deep']);
  const s = await serve(files);
  const { entries, problems, error } = await readAll(`${s.origin}/level0.xml`, {
    client: client(),
  });
  assert.equal(error, undefined);
  assert.deepEqual(entries, []);
  assert.equal(problems.length, 1);
  assert.match(
    problems[0]!.message,
    /an index 3 below the first: its 1 sitemaps are not read \(maxDepth 3\)/,
  );
  assert.equal(s.requests.filter((r) => r.path.startsWith('/level')).length, 4);
  const deeper = await readAll(`${s.origin}/level0.xml`, { client: client(), maxDepth: 10 });
  assert.deepEqual(
    deeper.entries.map((e) => e.url),
    [`${s.origin}/deep`],
  );
});

test('a read past maxSitemaps or maxEntries ends with read-limit, even with continueOnError', async () => {
  const s = await serve({
    '/index.xml': sitemapIndex(['/a.xml', '/b.xml', '/c.xml']),
    '/a.xml': urlset(['/1', '/2']),
    '/b.xml': urlset(['/3', '/4']),
    '/c.xml': urlset(['/5']),
  });
  const sitemaps = await readAll(`${s.origin}/index.xml`, {
    client: client(),
    maxSitemaps: 3,
    continueOnError: true,
  });
  assert.equal(sitemaps.entries.length, 4);
  assert.equal(failure(sitemaps.error).reason, 'read-limit');
  const entries = await readAll(`${s.origin}/index.xml`, {
    client: client(),
    maxEntries: 3,
    continueOnError: true,
  });
  assert.equal(entries.entries.length, 3);
  assert.equal(failure(entries.error).reason, 'read-limit');
});

test('text without markup, nesting without end, corrupt gzip, a file cut short, an HTML page', async () => {
  const run = await readAll(Buffer.from(`<urlset><url><loc>${'a'.repeat(2 * 1024 * 1024)}`), {});
  assert.equal(failure(run.error).reason, 'malformed');
  assert.match(failure(run.error).message, /without markup/);
  const nested = await readAll(Buffer.from(`<urlset>${'<a>'.repeat(100)}`), {});
  assert.match(failure(nested.error).message, /nested more than 64 deep/);
  const corrupt = gzipSync(urlset(['https://example.com/a']));
  corrupt.fill(0, 20, 40);
  assert.equal(failure((await readAll(corrupt, {})).error).reason, 'malformed');
  const whole = urlset(['https://example.com/a', 'https://example.com/b']);
  const cut = await readAll(
    Buffer.from(whole.slice(0, whole.indexOf('https://example.com/b') + 10)),
    {},
  );
  assert.deepEqual(
    cut.entries.map((e) => e.url),
    ['https://example.com/a'],
  );
  assert.equal(failure(cut.error).reason, 'malformed');
  assert.ok(failure(cut.error).offset! > 0);
  const html = await readAll(Buffer.from('<!-- x --><html><body>hello</body></html>'), {});
  assert.match(failure(html.error).message, /<html> is no sitemap/);
  const empty = await readAll(Buffer.from('  \n'), {});
  assert.equal(failure(empty.error).reason, 'malformed');
});

test('a file of lines that are no URL, or entries without one: a hundred notes, then one counting the rest', async () => {
  const lines = 'x\n'.repeat(100_000);
  const text = await readAll(
    Buffer.from(`https://example.com/a\n${lines}https://example.com/b\n`),
    {},
  );
  assert.deepEqual(
    text.entries.map((e) => e.url),
    ['https://example.com/a', 'https://example.com/b'],
  );
  assert.equal(text.problems.length, 101);
  assert.deepEqual(text.problems[0], { sitemap: 'bytes', line: 2, message: 'not a URL: skipped' });
  assert.deepEqual(text.problems[100], {
    sitemap: 'bytes',
    line: 100_001,
    message: '99900 more entries or lines skipped, the last on line 100001',
  });
  const empty = await readAll(Buffer.from(`<urlset>${'<url/>\n'.repeat(5000)}</urlset>`), {});
  assert.equal(empty.problems.length, 101);
  assert.match(
    empty.problems[100]!.message,
    /^4900 more entries or lines skipped, the last on line 5000$/,
  );
});
