import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidUrlError, robotsUrl } from '../../src/fetch/index.ts';
import { locate } from '../../src/fetch/net/location.ts';
import { RepkitError } from '../../src/core/index.ts';

describe('robotsUrl(pageUrl)', () => {
  const cases: [page: string, robots: string][] = [
    ['https://example.com/some/page?x=1#top', 'https://example.com/robots.txt'],
    ['http://user:pass@Example.COM/a', 'http://example.com/robots.txt'],
    ['http://example.com:80/a', 'http://example.com/robots.txt'],
    ['https://example.com:443/a', 'https://example.com/robots.txt'],
    ['ftp://example.com:21/pub/file', 'ftp://example.com/robots.txt'],
    ['https://example.com:8181/a', 'https://example.com:8181/robots.txt'],
    ['http://212.96.82.21/folder/', 'http://212.96.82.21/robots.txt'],
    ['http://[2001:db8::1]:8080/x', 'http://[2001:db8::1]:8080/robots.txt'],
    ['https://www.exämple.com/page', 'https://www.xn--exmple-cua.com/robots.txt'],
    ['https://www.xn--exmple-cua.com/page', 'https://www.xn--exmple-cua.com/robots.txt'],
    ['https://example.com', 'https://example.com/robots.txt'],
  ];
  for (const [page, robots] of cases) {
    test(`${page} → ${robots}`, () => assert.equal(robotsUrl(page), robots));
  }

  test('an IDN host and its punycode form are one origin', () => {
    assert.equal(
      locate('https://bücher.example/a').origin,
      locate('https://xn--bcher-kva.example/b').origin,
    );
  });

  test('other schemes and unparsable URLs are typed errors that say why', () => {
    for (const [input, why] of [
      ['mailto:someone@example.com', /scheme mailto: has no robots.txt/],
      ['file:///etc/passwd', /scheme file: has no robots.txt/],
      ['example.com/page', /not an absolute URL/],
      ['', /not an absolute URL/],
      ['http://', /not an absolute URL/],
    ] as const) {
      assert.throws(
        () => robotsUrl(input),
        (error: unknown) =>
          error instanceof InvalidUrlError &&
          error instanceof RepkitError &&
          error.url === input &&
          why.test(error.message),
        input,
      );
    }
  });
});

describe('locate(pageUrl) without a parse', () => {
  /** The origin as the WHATWG parser gives it (the way every URL took before the fast one). */
  function parsedOrigin(page: string): string | undefined {
    let url: URL;
    try {
      url = new URL(page);
    } catch {
      return undefined;
    }
    if (!['http:', 'https:', 'ftp:'].includes(url.protocol)) return undefined;
    const name = url.hostname.replace(/\.+$/, '');
    if (name === '') return undefined;
    return `${url.protocol}//${url.port ? `${name}:${url.port}` : name}`;
  }

  test('gives the parser’s origin for URLs of every shape, and refuses what it refuses', () => {
    const url = fc
      .tuple(
        fc.constantFrom('', ' ', '\t'),
        fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', 'http:\\\\'),
        fc.constantFrom('', 'u@', 'u:p@'),
        fc.constantFrom(
          'example.com',
          'a-b.c0m',
          'sub.example.co.uk',
          'Example.COM',
          '127.0.0.1',
          '010.0.0.1',
          '1.2.3',
          '256.1.1.1',
          'a.1',
          '0x7f.1',
          'xn--bcher-kva.example',
          'site.test.',
          'ex\tample.com',
          'a..b',
          '',
          '[::1]',
          'bücher.example',
          'a'.repeat(64) + '.com',
          'a.'.repeat(125) + 'com',
          'a.'.repeat(130) + 'com',
        ),
        fc.constantFrom('', ':80', ':443', ':8080', ':0', ':08', ':65535', ':65536', ':', ':21'),
        fc.constantFrom(
          '',
          '/',
          '/a/../b',
          '/%2e%2e/x',
          '/é',
          '/a b',
          '?',
          '?q',
          '#x',
          '\\x',
          '/x\n',
        ),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(url, (page) => {
        const expected = parsedOrigin(page);
        let got: string | undefined;
        try {
          const location = locate(page);
          got = location.origin;
          assert.equal(location.robotsUrl, `${got}/robots.txt`);
        } catch (error) {
          assert.ok(error instanceof InvalidUrlError, String(error));
        }
        assert.equal(got, expected, page);
      }),
      { numRuns: 3000 },
    );
  });
});
