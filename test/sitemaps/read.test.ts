/**
 * readSitemaps on loopback sites: every input kind (urlset, index, gzip'd both ways, plain
 * text, RSS, Atom, a body given), document order and lines, each entry's robots.txt verdict,
 * Google's scope rules with cross-submission, indexes followed depth first and once, sitemaps
 * judged against their own robots.txt (redirect hops too), `since`, and `continueOnError`.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { TestServer } from '../helpers/servers.ts';
import { isSitemapError, type SitemapError } from '../../src/sitemaps/index.ts';
import { readAll, site, sitemapIndex, testClient, urlset } from './sites.ts';

const servers: TestServer[] = [];
const clients: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all([...clients.map((c) => c.close()), ...servers.map((s) => s.close())]);
});
async function serve(...args: Parameters<typeof site>): Promise<TestServer> {
  const server = await site(...args);
  servers.push(server);
  return server;
}
function client(...args: Parameters<typeof testClient>) {
  const made = testClient(...args);
  clients.push(made);
  return made;
}
const paths = (entries: { url: string }[], origin: string) =>
  entries.map((e) => e.url.slice(origin.length));

test('a urlset: entries in document order with lastmod, line and their robots.txt verdict', async () => {
  const s = await serve({
    '/robots.txt': { body: 'User-agent: *\nDisallow: /private/\n', type: 'text/plain' },
    '/sitemap.xml': urlset(['/a', '/private/b', '/c'], '2026-11-01'),
  });
  const { entries, problems, error } = await readAll(`${s.origin}/sitemap.xml`, {
    client: client(),
  });
  assert.equal(error, undefined);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    entries.map((e) => [e.url.slice(s.origin.length), e.lastmod, e.line, e.allowed, e.reason]),
    [
      ['/a', '2026-11-01', 3, true, undefined],
      ['/private/b', '2026-11-01', 4, false, 'disallowed-by-rule'],
      ['/c', '2026-11-01', 5, true, undefined],
    ],
  );
  assert.ok(entries.every((e) => e.sitemap === `${s.origin}/sitemap.xml`));
  const only = await readAll(`${s.origin}/sitemap.xml`, { client: client(), onlyAllowed: true });
  assert.deepEqual(paths(only.entries, s.origin), ['/a', '/c']);
});

test('gzip: a .xml.gz file and a Content-Encoding: gzip response read alike', async () => {
  const files: Record<string, { body: Buffer | string; type?: string; encoding?: 'gzip' }> = {
    '/encoded.xml': { body: urlset(['/c']), encoding: 'gzip' },
  };
  const s = await serve(files);
  const xml = urlset(['/a', '/b']).replaceAll('{origin}', s.origin);
  files['/sitemap.xml.gz'] = { body: gzipSync(xml), type: 'application/gzip' };
  const zipped = await readAll(`${s.origin}/sitemap.xml.gz`, { client: client() });
  assert.equal(zipped.error, undefined);
  assert.deepEqual(paths(zipped.entries, s.origin), ['/a', '/b']);
  const encoded = await readAll(`${s.origin}/encoded.xml`, { client: client() });
  assert.deepEqual(paths(encoded.entries, s.origin), ['/c']);
});

test("gzip with real URLs, and a body given as bytes, gzip'd or not", async () => {
  const xml = urlset(['https://example.com/a', 'https://example.com/b']);
  const gz = await serve({ '/s.xml.gz': { body: gzipSync(xml), type: 'application/x-gzip' } });
  const fetched = await readAll(`${gz.origin}/s.xml.gz`, { client: client(), sameHost: false });
  assert.deepEqual(
    fetched.entries.map((e) => e.url),
    ['https://example.com/a', 'https://example.com/b'],
  );
  for (const bytes of [Buffer.from(xml), gzipSync(xml)]) {
    const given = await readAll(bytes, {});
    assert.equal(given.error, undefined);
    assert.deepEqual(
      given.entries.map((e) => [e.url, e.sitemap, e.allowed]),
      [
        ['https://example.com/a', 'bytes', undefined],
        ['https://example.com/b', 'bytes', undefined],
      ],
    );
  }
});

test('plain text, RSS 2.0 and Atom 1.0 sitemaps', async () => {
  const s = await serve({
    '/list.txt': { body: '{origin}/a\n\nnot a url\n{origin}/b\r\n', type: 'text/plain' },
    '/feed.rss': `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>{origin}/</link>
<item><title>one</title><link>{origin}/posts/1</link><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate></item>
<item><link><![CDATA[{origin}/posts/2]]></link></item></channel></rss>`,
    '/feed.atom': `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
<link href="{origin}/"/><entry><link rel="self" href="{origin}/self"/><link href="{origin}/entries/1"/>
<updated>2026-11-02T10:00:00Z</updated></entry></feed>`,
  });
  const text = await readAll(`${s.origin}/list.txt`, { client: client() });
  assert.deepEqual(paths(text.entries, s.origin), ['/a', '/b']);
  assert.deepEqual(
    text.entries.map((e) => e.line),
    [1, 4],
  );
  assert.deepEqual(
    text.problems.map((p) => [p.line, p.message]),
    [[3, 'not a URL: skipped']],
  );
  const rss = await readAll(`${s.origin}/feed.rss`, { client: client() });
  assert.deepEqual(paths(rss.entries, s.origin), ['/posts/1', '/posts/2']);
  assert.equal(rss.entries[0]!.lastmod, 'Mon, 02 Nov 2026 10:00:00 GMT');
  const atom = await readAll(`${s.origin}/feed.atom`, { client: client() });
  assert.deepEqual(paths(atom.entries, s.origin), ['/entries/1']);
  assert.equal(atom.entries[0]!.lastmod, '2026-11-02T10:00:00Z');
});

test('an index: its sitemaps read depth first, in order, each once (a cycle is reported)', async () => {
  const s = await serve({
    '/index.xml': sitemapIndex(['/one.xml', '/inner.xml', '/two.xml']),
    '/inner.xml': sitemapIndex(['/three.xml', '/index.xml']),
    '/one.xml': urlset(['/1']),
    '/two.xml': urlset(['/2']),
    '/three.xml': urlset(['/3']),
  });
  const { entries, problems, error } = await readAll(`${s.origin}/index.xml`, { client: client() });
  assert.equal(error, undefined);
  assert.deepEqual(paths(entries, s.origin), ['/1', '/3', '/2']);
  assert.deepEqual(
    entries.map((e) => e.sitemap.slice(s.origin.length)),
    ['/one.xml', '/three.xml', '/two.xml'],
  );
  assert.deepEqual(
    problems.map((p) => [p.sitemap.slice(s.origin.length), p.message]),
    [['/index.xml', 'read already (an index cycle): not read again']],
  );
  assert.equal(s.requests.filter((r) => r.path === '/index.xml').length, 1);
});

test("a site: its robots.txt's Sitemap lines, cross-submission to another host; /sitemap.xml without any", async () => {
  const other = await serve({ '/sitemaps/mine.xml': urlset([]) }, '127.0.0.2');
  const home = await serve({
    '/robots.txt': {
      body: `User-agent: *\nAllow: /\nSitemap: ${other.origin}/sitemaps/mine.xml\n`,
      type: 'text/plain',
    },
  });
  // The sitemap on 127.0.0.2 lists 127.0.0.1's pages: named in 127.0.0.1's robots.txt, it may.
  const files = {
    '/sitemaps/mine.xml': urlset([
      `${home.origin}/x`,
      `${home.origin}/deep/y`,
      `${other.origin}/elsewhere`,
    ]),
  };
  const crossed = await serve(files, '127.0.0.2');
  const host = await serve({
    '/robots.txt': { body: `Sitemap: ${crossed.origin}/sitemaps/mine.xml\n`, type: 'text/plain' },
  });
  files['/sitemaps/mine.xml'] = urlset([
    `${host.origin}/x`,
    `${host.origin}/deep/y`,
    `${crossed.origin}/not-mine`,
  ]);
  const read = await readAll(`${host.origin}/`, { client: client() });
  assert.equal(read.error, undefined);
  assert.deepEqual(
    read.entries.map((e) => e.url),
    [`${host.origin}/x`, `${host.origin}/deep/y`],
  );
  assert.match(
    read.problems[0]!.message,
    /not-mine: outside the sitemap's host and directory; skipped/,
  );
  void home;
  const plain = await serve({ '/sitemap.xml': urlset(['/p']) });
  const fallback = await readAll(`${plain.origin}/`, { client: client() });
  assert.deepEqual(paths(fallback.entries, plain.origin), ['/p']);
});

test('a relative Sitemap line is reported and not read (Google reads absolute URLs only), never a crash', async () => {
  const files: Parameters<typeof site>[0] = {
    '/relative.xml': urlset(['/from-relative']),
    '/a.xml': urlset(['/from-absolute']),
  };
  const s = await serve(files);
  files['/robots.txt'] = {
    body: `User-agent: *\nSitemap: /relative.xml\nSitemap: ${s.origin}/a.xml\nSitemap: ${s.origin.replace('http:', 'HTTP:')}/a.xml\n`,
    type: 'text/plain',
  };
  const robots = `${s.origin}/robots.txt`;
  const read = await readAll(`${s.origin}/`, { client: client() });
  assert.equal(read.error, undefined);
  // The same sitemap named twice (the scheme's case aside) is read once.
  assert.deepEqual(paths(read.entries, s.origin), ['/from-absolute']);
  assert.deepEqual(
    read.problems.map((p) => [p.sitemap, p.message]),
    [
      [
        robots,
        'Sitemap: /relative.xml: not an absolute http(s) URL (Google reads only those); not read',
      ],
    ],
  );
  // Only relative lines: as a robots.txt naming none, its /sitemap.xml.
  const only = await serve({
    '/robots.txt': { body: 'Sitemap: sitemap.xml\n', type: 'text/plain' },
    '/sitemap.xml': urlset(['/p']),
  });
  const fallback = await readAll(`${only.origin}/`, { client: client() });
  assert.deepEqual(paths(fallback.entries, only.origin), ['/p']);
  assert.equal(fallback.problems.length, 1);
});

test("Google's scope: a sitemap lists its own host and directory; an index its own host's sitemaps", async () => {
  const other = await serve({ '/s.xml': urlset(['/o']) }, '127.0.0.2');
  const s = await serve({
    '/catalog/sitemap.xml': urlset(['/catalog/a', '/images/b', `${other.origin}/c`]),
    '/index.xml': sitemapIndex(['/catalog/sitemap.xml', `${other.origin}/s.xml`]),
  });
  const read = await readAll(`${s.origin}/index.xml`, { client: client() });
  assert.deepEqual(paths(read.entries, s.origin), ['/catalog/a']);
  assert.deepEqual(
    read.problems.map((p) => p.message.replace(s.origin, '').replace(other.origin, 'OTHER')),
    [
      "/images/b: outside the sitemap's host and directory; skipped",
      "OTHER/c: outside the sitemap's host and directory; skipped",
      'OTHER/s.xml: a sitemap of another host; not read',
    ],
  );
  assert.equal(other.requests.length, 0, 'the other host is never asked');
  const loose = await readAll(`${s.origin}/catalog/sitemap.xml`, {
    client: client(),
    sameHost: false,
  });
  assert.equal(loose.entries.length, 3);
});

test('a sitemap its robots.txt disallows is not fetched; a redirect into a disallowed path is not followed', async () => {
  const s = await serve({
    '/robots.txt': { body: 'User-agent: *\nDisallow: /private/\n', type: 'text/plain' },
    '/private/sitemap.xml': urlset(['/a']),
    '/moved.xml': { body: '', status: 302, location: '{origin}/private/sitemap.xml' },
  });
  const direct = await readAll(`${s.origin}/private/sitemap.xml`, { client: client() });
  assert.equal((direct.error as SitemapError).reason, 'disallowed');
  assert.equal((direct.error as SitemapError).errorCode, undefined, 'a rule, not a failure');
  const moved = await readAll(`${s.origin}/moved.xml`, { client: client() });
  assert.equal((moved.error as SitemapError).reason, 'fetch-failed');
  assert.match((moved.error as Error).message, /not followed/);
  assert.ok(!s.requests.some((r) => r.path === '/private/sitemap.xml'), 'never requested');
});

test('private addresses: the client guard refuses them, through index entries too', async () => {
  const inside = await serve({ '/s.xml': urlset(['/secret']) }, '127.0.0.2');
  const s = await serve({
    '/index.xml': sitemapIndex([`${inside.origin}/s.xml`]),
    '/urls.xml': urlset([`${inside.origin}/secret`]),
  });
  const guarded = client({ allowAddress: (address) => address === '127.0.0.1' });
  const index = await readAll(`${s.origin}/index.xml`, { client: guarded, sameHost: false });
  // Its robots.txt cannot be fetched from a refused address: the sitemap may not be fetched.
  assert.equal((index.error as SitemapError).reason, 'disallowed');
  assert.match((index.error as Error).message, /robots-txt-unreachable/);
  // Why it cannot, by code (a program need not read the message).
  assert.equal((index.error as SitemapError).errorCode, 'EREFUSEDADDRESS');
  assert.equal(inside.requests.length, 0);
  const urls = await readAll(`${s.origin}/urls.xml`, { client: guarded });
  assert.deepEqual(urls.entries, []);
  assert.match(urls.problems[0]!.message, /outside the sitemap's host/);
});

test('since, and continueOnError: a sitemap that fails is reported and the others read', async () => {
  const s = await serve({
    '/index.xml': sitemapIndex(['/old.xml', '/missing.xml', '/new.xml']),
    '/old.xml': urlset(['/o'], '2025-01-01'),
    '/new.xml': urlset(['/n'], '2026-11-20'),
  });
  const stopped = await readAll(`${s.origin}/index.xml`, { client: client() });
  assert.deepEqual(paths(stopped.entries, s.origin), ['/o']);
  assert.ok(isSitemapError(stopped.error));
  assert.equal((stopped.error as SitemapError).reason, 'fetch-failed');
  assert.match((stopped.error as Error).message, /missing\.xml.*HTTP 404/);
  assert.equal((stopped.error as SitemapError).errorCode, undefined, 'an answer, not a failure');
  const going = await readAll(`${s.origin}/index.xml`, {
    client: client(),
    continueOnError: true,
    since: '2026-06-01',
  });
  assert.equal(going.error, undefined);
  assert.deepEqual(paths(going.entries, s.origin), ['/n']);
  assert.equal(going.problems.length, 1);
  assert.equal(going.problems[0]!.error?.reason, 'fetch-failed');
});

test('a source that is no URL, and a URL without a client, are typed errors', async () => {
  const bad = await readAll('ftp://example.com/s.xml', {});
  assert.equal((bad.error as { code?: string }).code, 'invalid-url');
  const alone = await readAll('https://example.com/s.xml', {});
  assert.equal((alone.error as { code?: string }).code, 'invalid-option');
  const bound = await readAll('https://example.com/s.xml', { client: client(), maxDepth: -1 });
  assert.equal((bound.error as { code?: string }).code, 'invalid-option');
});
