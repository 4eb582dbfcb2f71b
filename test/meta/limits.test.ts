/**
 * Page rules on hostile or unusual pages: a head that never ends, a token spanning thousands
 * of stream chunks, tens of thousands of meta tags, and UTF-16 with a byte-order mark.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_DIRECTIVES, MAX_HEAD_CHARS, MAX_META_TAGS, pagePolicy } from '../../src/meta/index.ts';
import { readHeadMetas } from '../../src/meta/html.ts';

/** A stream of `total` characters in pieces of `size`, counting what was taken from it. */
function stream(prefix: string, filler: string, total: number, size: number) {
  const taken = { chars: 0 };
  async function* pieces() {
    yield prefix;
    for (let sent = prefix.length; sent < total; sent += size) {
      taken.chars += size;
      yield filler.repeat(Math.ceil(size / filler.length)).slice(0, size);
    }
  }
  return { source: pieces(), taken };
}

describe('a head that never ends', () => {
  test('a 50 MB stream is read only to the limit, and says so', async () => {
    const { source, taken } = stream('<html><head><title>', 'x', 50_000_000, 64 * 1024);
    const read = await readHeadMetas(source);
    assert.equal(read.stoppedAt, 'limit');
    assert.equal(read.charsRead, MAX_HEAD_CHARS);
    assert.ok(taken.chars < 2 * MAX_HEAD_CHARS, `${taken.chars} characters taken from the stream`);
  });

  test('a 20 MB string is read only to the limit; pagePolicy reports it as a problem', async () => {
    const page =
      '<html><head><meta name="robots" content="noindex"><title>' + 'x'.repeat(20_000_000);
    const result = await pagePolicy({ html: page }, 'Googlebot');
    assert.equal(result.policy.index, false, 'what was read still counts');
    assert.equal(result.html?.stoppedAt, 'limit');
    assert.ok(result.problems.some((p) => p.kind === 'limit' && /still open/.test(p.message)));
  });
});

describe('linear time', () => {
  test('one attribute value spanning 60,000 stream chunks of 16 characters', async () => {
    // Equal small writes made the tokenizer go back over the unfinished token each time:
    // 60,000 writes of a growing 1 MB token. Doubling writes read it a few times at most.
    const prefix = '<html><head><meta name="robots" content="noindex, ';
    const value = 'a'.repeat(960_000);
    const text = `${prefix}${value}"></head><body>b</body>`;
    async function* pieces() {
      for (let i = 0; i < text.length; i += 16) yield text.slice(i, i + 16);
    }
    const read = await readHeadMetas(pieces());
    assert.equal(read.stoppedAt, 'head-end');
    assert.equal(read.metas.length, 1);
    assert.equal(read.metas[0]!.content.length, 'noindex, '.length + value.length);
  });
});

describe('bounded counts', () => {
  test('meta tags past 1,000 and directives past 1,000 are not kept, and that is said', async () => {
    const tag = '<meta name="robots" content="noindex, nofollow">';
    const page = `<html><head>${tag.repeat(20_000)}</head><body>x</body>`;
    const read = await readHeadMetas(page);
    assert.equal(read.metas.length, MAX_META_TAGS);
    assert.equal(read.metasDropped, 20_000 - MAX_META_TAGS);
    const result = await pagePolicy({ html: page }, 'Googlebot');
    assert.equal(result.directives.length, MAX_DIRECTIVES);
    assert.deepEqual([result.policy.index, result.policy.follow], [false, false]);
    const limits = result.problems.filter((p) => p.kind === 'limit').map((p) => p.message);
    assert.equal(limits.length, 2, limits.join('; '));
  });

  test('an X-Robots-Tag with 100,000 directives is read to the cap', async () => {
    const header = Array.from({ length: 100_000 }, () => 'noarchive').join(', ') + ', noindex';
    const result = await pagePolicy({ headers: { 'x-robots-tag': header } }, 'Googlebot');
    assert.equal(result.directives.length, MAX_DIRECTIVES);
    assert.equal(result.policy.archive, false);
    assert.ok(result.problems.some((p) => p.kind === 'limit'));
  });
});

describe('UTF-16 pages', () => {
  const page = '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>';
  const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page, 'utf16le')]);
  const utf16be = Buffer.from(utf16le);
  utf16be.swap16(); // also turns FF FE into FE FF

  for (const [name, bytes] of [
    ['UTF-16LE', utf16le],
    ['UTF-16BE', utf16be],
  ] as const) {
    test(`${name} with a BOM, as bytes and as a stream of odd-sized pieces`, async () => {
      assert.equal((await pagePolicy({ html: new Uint8Array(bytes) }, 'x')).policy.index, false);
      async function* pieces() {
        for (let i = 0; i < bytes.length; i += 7) yield new Uint8Array(bytes.subarray(i, i + 7));
      }
      assert.equal((await pagePolicy({ html: pieces() }, 'x')).policy.index, false);
    });
  }

  test('bytes arriving one at a time are read once each', async () => {
    const page = new TextEncoder().encode('<html><head><meta name="robots" content="noindex">');
    async function* bytes() {
      for (const byte of page) yield new Uint8Array([byte]);
    }
    const read = await readHeadMetas(bytes());
    assert.deepEqual([read.stoppedAt, read.charsRead], ['input-end', page.length]);
    assert.equal(read.metas.length, 1);
  });

  test('a UTF-8 BOM is dropped, and a page too short to sniff still reads', async () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page)]);
    assert.equal((await pagePolicy({ html: new Uint8Array(utf8) }, 'x')).policy.index, false);
    assert.equal((await readHeadMetas(new Uint8Array([0x3c, 0x70]))).stoppedAt, 'input-end');
  });
});
