/**
 * A user-agent value's product token is its leading run of `[A-Za-z_-]`, taken from the bytes
 * as Google's ExtractUserAgent takes it: a BOM, a zero-width space or any other invisible or
 * non-ASCII character ends it, wherever it stands. The token (and so the group a crawler
 * gets) must not depend on the form the body came in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parse } from '../../src/core/index.ts';
import { LARGE_BODY } from '../../src/core/text/source.ts';
import { googleOracle } from '../helpers/google-oracle.ts';

const utf8 = new TextEncoder();

/** Characters a value may carry that are not product-token characters, invisible ones first. */
const odd = fc.constantFrom('\ufeff', '\u200b', '\u00a0', '\u2060', 'é', 'ツ', '😀', '\u00ad');
const name = fc.constantFrom('FooBot', 'foobot', 'Foo-Bot', 'Foo_Bot', '');

/** A user-agent value: a name with odd characters before, inside or after it. */
const agentValue = fc
  .tuple(name, odd, fc.constantFrom('start', 'middle', 'end', 'none'))
  .map(([n, c, where]) => {
    if (where === 'start') return c + n;
    if (where === 'end') return n + c;
    if (where === 'middle') return n.slice(0, 3) + c + n.slice(3);
    return n;
  });

const file = fc
  .tuple(
    fc.boolean(), // a `*` group first
    agentValue,
    fc.constantFrom(': ', ':', ' : ', ':\t'),
    fc.constantFrom('/', '/a', '/b'),
  )
  .map(([starFirst, value, sep, rule]) => {
    const head = starFirst ? 'User-agent: *\nAllow: /\n\n' : '';
    return `${head}User-agent${sep}${value}\nDisallow${sep}${rule}\n`;
  });

/** The forms a body may come in: text, bytes, a view at an offset, an ArrayBuffer, pieces. */
function forms(text: string): [string, string | Uint8Array | ArrayBuffer, Uint8Array][] {
  const bytes = utf8.encode(text);
  const padded = new Uint8Array(bytes.length + 7);
  padded.set(bytes, 7);
  // Over LARGE_BODY the bytes are read in pieces: pad with comment lines ahead of the groups.
  const large = '#' + 'x'.repeat(99) + '\n';
  const big = large.repeat(Math.ceil((LARGE_BODY + 1024) / large.length)) + text;
  const bigBytes = utf8.encode(big);
  return [
    ['text', text, bytes],
    ['bytes', bytes, bytes],
    ['a view at an offset', padded.subarray(7), bytes],
    ['an ArrayBuffer', bytes.buffer.slice(0), bytes],
    ['large text', big, bigBytes],
    ['large bytes', bigBytes, bigBytes],
  ];
}

const agents = ['FooBot', 'foo', '', 'Foo-Bot', 'Foo_Bot', 'Foo', 'Googlebot'];
const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/'];

describe('a user-agent value with invisible or non-ASCII characters', () => {
  test('the README case: a BOM before the name, from bytes', () => {
    const bytes = utf8.encode('User-agent: \ufeffFooBot\nDisallow: /\n');
    const robots = parse(bytes);
    assert.deepEqual(robots.verdict('https://example.com/a', 'FooBot'), {
      allowed: true,
      line: 0,
      reason: 'no-matching-group',
    });
    assert.equal(robots.verdict('https://example.com/a', '').allowed, false);
    assert.equal(robots.verdict('https://example.com/a', '').line, 2);
    // The name is shown as written, BOM and all; the group is named by the empty token.
    assert.deepEqual(robots.groups[0]!.agents, ['\ufeffFooBot']);
    assert.deepEqual(robots.groups[0]!.tokens, ['']);
  });

  test('names the same group in every form, as Google does', () => {
    fc.assert(
      fc.property(file, (text) => {
        for (const [form, body, bytes] of forms(text)) {
          const robots = parse(body);
          for (const agent of agents) {
            for (const url of urls) {
              const google = googleOracle(bytes, agent, url);
              const got = robots.verdict(url, agent);
              assert.equal(got.allowed, google.allowed, `${form}, ${agent}, ${url}`);
              assert.equal(got.line, google.line, `${form}, ${agent}, ${url}: line`);
              const explained = robots.explain(url, agent);
              assert.equal(explained.allowed, got.allowed, `${form}: explain agrees`);
            }
          }
          const valueLine = text
            .split('\n')
            .find((l) => l.startsWith('User-agent') && !l.includes('*'))!;
          const written = valueLine.replace(/^User-agent\s*:[ \t]*/, '');
          const shown = robots.groups.flatMap((g) => g.agents).filter((a) => a !== '*');
          assert.deepEqual(shown, [written.replace(/[ \t]+$/, '')], `${form}: the name as written`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
