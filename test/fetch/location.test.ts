import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidUrlError, robotsUrl } from '../../src/fetch/index.ts';
import { locate } from '../../src/fetch/location.ts';
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
