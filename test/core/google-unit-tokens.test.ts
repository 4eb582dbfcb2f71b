/**
 * The behaviours Google's own unit tests pin down for its tokenizer (RobotsStatsReporter) and
 * helpers (google/robotstxt robots_test.cc), restated as repkit tests; the matcher's are in
 * google-unit.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import { pathParamsQuery } from '../../src/core/match/url.ts';
import { googleEscape } from '../../src/core/match/pattern.ts';
import { tokenizeBody, type Directive } from '../../src/core/tokenizer-entry.ts';

/** Counts directives as Google's RobotsStatsReporter does. */
function stats(body: string | Uint8Array) {
  let lastLine = 0;
  let valid = 0;
  let unknown = 0;
  const sitemaps: string[] = [];
  tokenizeBody(body, {
    directive(d: Directive) {
      assert.ok(d.line >= lastLine, 'lines are reported in order');
      lastLine = d.line;
      if (d.kind === 'unknown') unknown++;
      else valid++;
      if (d.kind === 'sitemap') sitemaps.push(d.value);
    },
  });
  return { lastLine, valid, unknown, sitemaps };
}

describe('tokenizer', () => {
  test('CR, LF, CRLF and mixed line endings are counted alike', () => {
    const files = [
      'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n',
      'User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n',
      'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r',
      'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /',
      'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /',
    ];
    for (const file of files) {
      const { valid, lastLine } = stats(file);
      assert.equal(valid, 4, JSON.stringify(file));
      assert.equal(lastLine, 6, JSON.stringify(file));
    }
  });

  test('a full or partial UTF-8 BOM is skipped, only at the start', () => {
    const rest = [...new TextEncoder().encode('User-Agent: foo\nAllow: /AnyValue\n')];
    const withPrefix = (...prefix: number[]) => new Uint8Array([...prefix, ...rest]);
    for (const prefix of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
      assert.deepEqual(
        {
          valid: stats(withPrefix(...prefix)).valid,
          unknown: stats(withPrefix(...prefix)).unknown,
        },
        { valid: 2, unknown: 0 },
      );
    }
    const broken = stats(withPrefix(0xef, 0x11, 0xbf));
    assert.deepEqual([broken.valid, broken.unknown], [1, 1]);
    const middle = new Uint8Array([
      ...new TextEncoder().encode('User-Agent: foo\n'),
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('Allow: /AnyValue\n'),
    ]);
    const inMiddle = stats(middle);
    assert.deepEqual([inMiddle.valid, inMiddle.unknown], [1, 1]);
  });

  test('sitemap lines are read anywhere in the file', () => {
    const loc = 'http://foo.bar/sitemap.xml';
    const groups = 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n';
    assert.deepEqual(stats(`${groups}Sitemap: ${loc}\n`).sitemaps, [loc]);
    assert.deepEqual(stats(`Sitemap: ${loc}\n${groups}`).sitemaps, [loc]);
    assert.deepEqual(parse(`Sitemap: ${loc}\n${groups}`).sitemaps, [loc]);
  });
});

describe('helpers', () => {
  test('pathParamsQuery extracts what Google matches', () => {
    const cases: [string, string][] = [
      ['', '/'],
      ['http://www.example.com', '/'],
      ['http://www.example.com/', '/'],
      ['http://www.example.com/a', '/a'],
      ['http://www.example.com/a/', '/a/'],
      ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
      ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['example.com', '/'],
      ['example.com/', '/'],
      ['example.com/a', '/a'],
      ['example.com/a/', '/a/'],
      ['example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['a', '/'],
      ['a/', '/'],
      ['/a', '/a'],
      ['a/b', '/b'],
      ['example.com?a', '/?a'],
      ['example.com/a;b#c', '/a;b'],
      ['//a/b/c', '/b/c'],
    ];
    for (const [url, path] of cases) assert.equal(pathParamsQuery(url), path, url);
  });

  test('pathParamsQuery reads http(s) URLs as the general reading does (its shortcut)', () => {
    // `http://` and `https://` in lower case take a shortcut; in capitals the same URL takes
    // the general reading, and a scheme's case changes nothing Google extracts.
    const tails = ['a', 'h.example', '/', '?', ';', '#', '\0', '://', ':80', '%2F', '\u00e9', ''];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let i = 0; i < 4000; i++) {
      let rest = '';
      for (let k = next(7); k > 0; k--) rest += tails[next(tails.length)];
      for (const scheme of ['http', 'https']) {
        const url = `${scheme}://${rest}`;
        const general = `${scheme.toUpperCase()}://${rest}`;
        assert.equal(pathParamsQuery(url), pathParamsQuery(general), JSON.stringify(url));
      }
    }
    // What the general reading gives, for a few of them.
    assert.equal(pathParamsQuery('HTTP://h.example/a?b#c'), '/a?b');
    assert.equal(pathParamsQuery('http://h.example'), '/');
    assert.equal(pathParamsQuery('https://'), '/');
    assert.equal(pathParamsQuery('http://h/a\0b'), '/a');
  });

  test('googleEscape: non-ASCII octets %-encoded, escapes upper-cased', () => {
    const asBytes = (s: string) => String.fromCharCode(...new TextEncoder().encode(s));
    assert.equal(googleEscape('http://www.example.com'), 'http://www.example.com');
    assert.equal(googleEscape('/a/b/c'), '/a/b/c');
    assert.equal(googleEscape(asBytes('á')), '%C3%A1');
    assert.equal(googleEscape('%aa'), '%AA');
    // Beyond Google's cases: escapes mixed with octets, partial and non-hex escapes kept.
    assert.equal(googleEscape('/%2Fa%3f' + asBytes('é') + '%2a'), '/%2Fa%3F%C3%A9%2A');
    assert.equal(googleEscape('/%2F%zz%a'), '/%2F%zz%a');
    assert.equal(googleEscape('/x%aF' + asBytes('ツ') + 'y'), '/x%AF%E3%83%84y');
  });
});
