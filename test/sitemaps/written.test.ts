/**
 * Sitemaps as they are written in the wild, not as a validator wants them: a UTF-8 byte order
 * mark, blank lines before the XML declaration, elements under a prefix bound to the sitemap
 * namespace (Python's ElementTree writes `ns0:`), read whole and in one-byte chunks; a UTF-16
 * file and an HTML page said to be what they are; errors placed in the file's own bytes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type SitemapError } from '../../src/sitemaps/index.ts';
import { SitemapFile, type FileItem } from '../../src/sitemaps/formats.ts';
import { readAll } from './sites.ts';

const BOUNDS = { maxBytes: 1 << 20, maxUrls: 1000, maxSitemaps: 1000 };
const failure = (error: unknown) => error as SitemapError;

/** A file's items, read whole or one byte at a time. */
function items(bytes: Uint8Array, oneByteChunks: boolean): FileItem[] {
  const file = new SitemapFile('test', BOUNDS);
  const out: FileItem[] = [];
  if (oneByteChunks)
    for (let i = 0; i < bytes.length; i++) out.push(...file.write(bytes.subarray(i, i + 1)));
  else out.push(...file.write(bytes));
  out.push(...file.end());
  return out;
}

test('a byte order mark and blank lines before the XML declaration are skipped; lines stay the file’s', async () => {
  const body =
    '\uFEFF\r\n\n<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc><lastmod>2026-11-01</lastmod></url>\n</urlset>\n';
  const bytes = Buffer.from(body);
  for (const oneByte of [false, true]) {
    assert.deepEqual(
      items(bytes, oneByte).map((i) => [i.loc, i.line, i.lastmod]),
      [
        ['https://example.com/a', 5, undefined],
        ['https://example.com/b', 6, '2026-11-01'],
      ],
      oneByte ? 'one byte at a time' : 'whole',
    );
  }
  const read = await readAll(bytes, {});
  assert.equal(read.error, undefined);
  assert.deepEqual(
    read.entries.map((e) => [e.url, e.line]),
    [
      ['https://example.com/a', 5],
      ['https://example.com/b', 6],
    ],
  );
  // A plain URL list after a byte order mark and blank lines counts them too.
  const list = await readAll(Buffer.from('\uFEFF\n\nhttps://example.com/t\nnot a url\n'), {});
  assert.deepEqual(
    [list.entries.map((e) => [e.url, e.line]), list.problems.map((p) => p.line)],
    [[['https://example.com/t', 3]], [4]],
  );
});

test('an error after skipped lines is placed in the file: its line and byte, not the tokenizer’s', async () => {
  const body =
    '\n\n<?xml version="1.0"?>\n<urlset><url><loc>https://example.com/a</loc></url>\n<url><loc>x</lo>';
  const read = await readAll(Buffer.from(body), {});
  assert.deepEqual(
    read.entries.map((e) => e.url),
    ['https://example.com/a'],
  );
  const error = failure(read.error);
  assert.equal(error.reason, 'malformed');
  assert.equal(error.line, 5);
  assert.ok(
    error.offset! > body.indexOf('</lo>') && error.offset! <= body.length,
    `${error.offset}`,
  );
  // The tokenizer's own `line:column: ` is not repeated in the message.
  assert.doesNotMatch(error.message, /\d+:\d+: /);
});

test('elements under a prefix bound to the sitemap namespace (ns0:) are read; an unknown namespace is not', () => {
  const ns = 'http://www.sitemaps.org/schemas/sitemap/0.9';
  const set = `<?xml version='1.0' encoding='utf-8'?>\n<ns0:urlset xmlns:ns0="${ns}"><ns0:url><ns0:loc>https://example.com/p</ns0:loc><ns0:lastmod>2026-10-01</ns0:lastmod></ns0:url></ns0:urlset>`;
  assert.deepEqual(
    items(Buffer.from(set), false).map((i) => [i.kind, i.loc, i.lastmod]),
    [['url', 'https://example.com/p', '2026-10-01']],
  );
  const index = `<sm:sitemapindex xmlns:sm="${ns}"><sm:sitemap><sm:loc>https://example.com/s1.xml</sm:loc></sm:sitemap></sm:sitemapindex>`;
  assert.deepEqual(
    items(Buffer.from(index), true).map((i) => [i.kind, i.loc]),
    [['sitemap', 'https://example.com/s1.xml']],
  );
  // Another namespace's elements inside an entry are not its URL (image:loc).
  const images = `<urlset xmlns="${ns}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://example.com/page</loc><image:image><image:loc>https://example.com/i.png</image:loc></image:image></url></urlset>`;
  assert.deepEqual(
    items(Buffer.from(images), false).map((i) => i.loc),
    ['https://example.com/page'],
  );
  const other =
    '<x:urlset xmlns:x="http://example.com/other"><x:url><x:loc>https://example.com/o</x:loc></x:url></x:urlset>';
  assert.throws(
    () => items(Buffer.from(other), false),
    (error: SitemapError) =>
      error.reason === 'malformed' && /<x:urlset> is no sitemap/.test(error.message),
  );
});

test('a UTF-16 file and an HTML page are said to be what they are; a DTD is still refused', async () => {
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('<urlset><url><loc>https://example.com/u</loc></url></urlset>', 'utf16le'),
  ]);
  const wide = failure((await readAll(utf16, {})).error);
  assert.deepEqual([wide.reason, wide.offset, wide.line], ['malformed', 0, 1]);
  assert.match(wide.message, /UTF-16/);
  for (const page of [
    '<!DOCTYPE html>\n<html><body>Not found</body></html>',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html/>',
  ]) {
    const error = failure((await readAll(Buffer.from(page), {})).error);
    assert.equal(error.reason, 'malformed');
    assert.match(error.message, /an HTML page/);
  }
  const dtd =
    '<!DOCTYPE html [<!ENTITY x "y">]><urlset><url><loc>https://example.com/&x;</loc></url></urlset>';
  assert.equal(failure((await readAll(Buffer.from(dtd), {})).error).reason, 'doctype');
});

test('since reads dates as written, the same in every time zone: a coarse date may be in range', async () => {
  const dates = [
    '2026-10-31', // before
    '2026-11-01T00:30:00+01:00', // 2026-10-31T23:30Z: before
    '2026-10-31T23:30:00-01:00', // 2026-11-01T00:30Z: kept
    '2026-10-31T23:30:00', // no zone: UTC, before
    '2026-11-01T00:10', // no zone: UTC, kept
    '2026', // some time in 2026: kept
    '2025-12', // all of it before
    'Mon, 02 Nov 2026 10:00:00 GMT', // RSS: kept
    'not a date', // kept, as an entry without one
  ];
  const body = `<urlset>${dates.map((d, i) => `<url><loc>https://example.com/${i}</loc><lastmod>${d}</lastmod></url>`).join('')}</urlset>`;
  const zone = process.env.TZ;
  try {
    for (const tz of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles']) {
      process.env.TZ = tz;
      const read = await readAll(Buffer.from(body), { since: '2026-11-01' });
      assert.deepEqual(
        read.entries.map((e) => e.lastmod),
        [
          '2026-10-31T23:30:00-01:00',
          '2026-11-01T00:10',
          '2026',
          'Mon, 02 Nov 2026 10:00:00 GMT',
          'not a date',
        ],
        tz,
      );
    }
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});
