import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pagePolicy } from '../../src/meta/index.ts';
import { OPEN_POLICY, parseUnavailableAfter } from '../../src/meta/directives.ts';
import { ROOT } from '../helpers/shared.ts';

const head = (...metas: string[]) =>
  `<!doctype html><html><head><title>t</title>${metas.join('')}</head><body>x</body></html>`;
const meta = (name: string, content: string) => `<meta name="${name}" content="${content}">`;
const fixture = (name: string) => readFileSync(join(ROOT, 'test/fixtures/meta', name));

describe('the HTML chapter of the 1996 standard (../shared/spec/http-guide-robots-and-meta.txt)', () => {
  test('NOINDEX, NOFOLLOW; names and values case-insensitive', async () => {
    const { policy } = await pagePolicy(
      { html: head('<META NAME="ROBOTS" CONTENT="NOINDEX,NOFOLLOW">') },
      'AnyBot',
    );
    assert.deepEqual([policy.index, policy.follow], [false, false]);
  });

  test('ALL means no restrictions; NONE means noindex and nofollow; NOARCHIVE', async () => {
    assert.deepEqual(
      (await pagePolicy({ html: head(meta('robots', 'ALL')) }, 'x')).policy,
      OPEN_POLICY,
    );
    const none = (await pagePolicy({ html: head(meta('Robots', 'None')) }, 'x')).policy;
    assert.deepEqual([none.index, none.follow, none.archive], [false, false, true]);
    assert.equal(
      (await pagePolicy({ html: head(meta('robots', 'NOARCHIVE')) }, 'x')).policy.archive,
      false,
    );
  });

  test('INDEX, NOFOLLOW and NOINDEX, FOLLOW', async () => {
    const a = (await pagePolicy({ html: head(meta('robots', 'INDEX,NOFOLLOW')) }, 'x')).policy;
    const b = (await pagePolicy({ html: head(meta('robots', 'NOINDEX,FOLLOW')) }, 'x')).policy;
    assert.deepEqual([a.index, a.follow, b.index, b.follow], [true, false, false, true]);
  });

  test('only the <head> counts: tags in the body, comments and scripts are not read', async () => {
    const html =
      '<html><head><!-- <meta name="robots" content="noindex"> --><script>document.write(\'<meta name="robots" content="nofollow">\')</script></head>' +
      '<body><meta name="robots" content="noindex"></body></html>';
    const result = await pagePolicy({ html }, 'x');
    assert.deepEqual(
      [result.policy.index, result.policy.follow, result.directives.length],
      [true, true, 0],
    );
  });

  test('per-robot tags: a crawler obeys the generic tag and its own', async () => {
    const html = head(
      meta('robots', 'noarchive'),
      meta('googlebot', 'nofollow'),
      meta('bingbot', 'noindex'),
    );
    const google = (await pagePolicy({ html }, 'Googlebot')).policy;
    const bing = (await pagePolicy({ html }, 'bingbot/2.0')).policy;
    const other = (await pagePolicy({ html }, 'OtherBot')).policy;
    assert.deepEqual([google.archive, google.follow, google.index], [false, false, true]);
    assert.deepEqual([bing.archive, bing.follow, bing.index], [false, true, false]);
    assert.deepEqual([other.archive, other.follow, other.index], [false, true, true]);
  });
});

describe("Google's directives", () => {
  const policyOf = async (content: string) =>
    (await pagePolicy({ html: head(meta('robots', content)) }, 'Googlebot')).policy;

  test('nosnippet, max-snippet, max-image-preview, max-video-preview', async () => {
    assert.deepEqual(
      [(await policyOf('nosnippet')).snippet, (await policyOf('nosnippet')).maxSnippet],
      [false, 0],
    );
    assert.equal((await policyOf('max-snippet:50')).maxSnippet, 50);
    assert.equal((await policyOf('max-snippet:-1')).maxSnippet, -1);
    assert.equal((await policyOf('max-snippet:0')).maxSnippet, 0);
    for (const size of ['none', 'standard', 'large'] as const) {
      assert.equal((await policyOf(`max-image-preview:${size}`)).maxImagePreview, size);
    }
    assert.equal((await policyOf('max-video-preview:15')).maxVideoPreview, 15);
    assert.equal((await policyOf('max-video-preview:-1')).maxVideoPreview, -1);
  });

  test('notranslate, noimageindex, nocache, indexifembedded', async () => {
    const p = await policyOf('notranslate, noimageindex, nocache, noindex, indexifembedded');
    assert.deepEqual(
      [p.translate, p.imageIndex, p.archive, p.index, p.indexIfEmbedded],
      [false, false, false, false, true],
    );
  });

  test('unavailable_after in the formats Google accepts', () => {
    const expected = Date.UTC(2010, 5, 25, 23, 0, 0);
    for (const text of [
      '25 Jun 2010 15:00:00 PST',
      'Friday, 25-Jun-10 15:00:00 PST',
      'Fri, 25 Jun 2010 15:00:00 PST',
      '2010-06-25T15:00:00-08:00',
    ]) {
      assert.equal(parseUnavailableAfter(text)?.getTime(), expected, text);
    }
    assert.equal(parseUnavailableAfter('next tuesday'), undefined);
  });

  test('an RFC 850 date keeps its comma inside a directive list', async () => {
    const result = await pagePolicy(
      {
        html: head(
          meta('robots', 'noarchive, unavailable_after: Friday, 25-Jun-10 15:00:00 PST, nosnippet'),
        ),
      },
      'x',
    );
    assert.equal(result.policy.unavailableAfter?.toISOString(), '2010-06-25T23:00:00.000Z');
    assert.deepEqual(
      [result.policy.archive, result.policy.snippet, result.problems],
      [false, false, []],
    );
  });

  test('conflicts: the most restrictive value wins, and says where it came from', async () => {
    const html = head(
      meta('robots', 'index, max-snippet:50, max-image-preview:large'),
      meta(
        'googlebot',
        'noindex, max-snippet:10, max-image-preview:standard, max-video-preview:-1',
      ),
      meta('robots', 'max-snippet:-1, max-video-preview:30'),
    );
    const result = await pagePolicy({ html }, 'Googlebot');
    assert.deepEqual(
      [
        result.policy.index,
        result.policy.maxSnippet,
        result.policy.maxImagePreview,
        result.policy.maxVideoPreview,
      ],
      [false, 10, 'standard', 30],
    );
    assert.deepEqual(
      [result.decidedBy.index?.agent, result.decidedBy.index?.text],
      ['googlebot', 'noindex'],
    );
    assert.equal(result.decidedBy.maxVideoPreview?.line, 1);
    assert.equal(result.decidedBy.maxSnippet?.text, 'max-snippet:10');
  });

  test('earliest unavailable_after wins', async () => {
    const html = head(
      meta('robots', 'unavailable_after: 2030-01-01'),
      meta('robots', 'unavailable_after: 2028-06-01'),
    );
    assert.equal(
      (await pagePolicy({ html }, 'x')).policy.unavailableAfter?.toISOString(),
      '2028-06-01T00:00:00.000Z',
    );
  });
});

describe('X-Robots-Tag', () => {
  test('generic and per-crawler values, repeated headers, a plain record or a Headers object', async () => {
    const values = ['noarchive', 'googlebot: nofollow', 'otherbot: noindex, nofollow'];
    for (const headers of [
      { 'X-Robots-Tag': values },
      new Headers(values.map((v) => ['x-robots-tag', v] as [string, string])),
    ]) {
      const google = (await pagePolicy({ headers }, 'Googlebot')).policy;
      assert.deepEqual([google.archive, google.follow, google.index], [false, false, true]);
      const other = (await pagePolicy({ headers }, 'OtherBot')).policy;
      assert.deepEqual([other.archive, other.follow, other.index], [false, false, false]);
    }
  });

  test('a valued directive is not mistaken for a crawler name', async () => {
    const result = await pagePolicy(
      {
        headers: { 'x-robots-tag': 'unavailable_after: 25 Jun 2010 15:00:00 PST, max-snippet: 20' },
      },
      'Googlebot',
    );
    assert.deepEqual(
      [result.policy.unavailableAfter?.getTime(), result.policy.maxSnippet],
      [Date.UTC(2010, 5, 25, 23), 20],
    );
    const scoped = await pagePolicy(
      { headers: { 'x-robots-tag': 'googlebot: unavailable_after: 25 Jun 2010 15:00:00 PST' } },
      'Bingbot',
    );
    assert.equal(scoped.policy.unavailableAfter, undefined);
  });

  test('meta tags and headers combine', async () => {
    const result = await pagePolicy(
      { html: head(meta('robots', 'noarchive')), headers: { 'x-robots-tag': 'noindex' } },
      'x',
    );
    assert.deepEqual([result.policy.archive, result.policy.index], [false, false]);
    assert.deepEqual(
      result.directives.map((d) => d.kind),
      ['meta', 'header'],
    );
  });
});

describe('malformed input is reported, never thrown', () => {
  test('unknown directives and bad values', async () => {
    const result = await pagePolicy(
      {
        html: head(
          meta(
            'robots',
            'noindex, nofolow, max-snippet:abc, max-image-preview:huge, unavailable_after: soon, max-video-preview:',
          ),
        ),
      },
      'x',
    );
    assert.equal(result.policy.index, false);
    assert.deepEqual(
      result.problems.map((p) => [p.kind, p.text]),
      [
        ['unknown-directive', 'nofolow'],
        ['invalid-value', 'max-snippet:abc'],
        ['invalid-value', 'max-image-preview:huge'],
        ['invalid-value', 'unavailable_after: soon'],
        ['invalid-value', 'max-video-preview:'],
      ],
    );
  });

  test("names of Object.prototype's members are unknown directives, and change nothing", async () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
    const result = await pagePolicy(
      {
        headers: { 'x-robots-tag': names.join(', ') },
        html: head(meta('robots', names.join(','))),
      },
      'x',
    );
    const clean = await pagePolicy({}, 'x');
    assert.deepEqual(result.policy, clean.policy);
    assert.deepEqual(
      result.problems.map((p) => [p.kind, p.text]),
      [...names, ...names].map((n) => ['unknown-directive', n]),
    );
  });

  test('broken HTML, empty input, missing attributes', async () => {
    for (const html of [
      '',
      '<',
      '<<<meta',
      '<meta name="robots" content="noindex"',
      '<head><meta name=robots><meta content=noindex>',
      '\u0000\uffff<html',
    ]) {
      const result = await pagePolicy({ html }, 'x');
      assert.equal(typeof result.policy.index, 'boolean');
    }
    assert.deepEqual((await pagePolicy({}, 'x')).policy, OPEN_POLICY);
  });
});

describe('large pages', () => {
  test('a 10 MB page is read only as far as its head', async () => {
    let pulled = 0;
    async function* page() {
      yield new TextEncoder().encode(
        `<!doctype html><html><head><title>Big</title>${meta('robots', 'noindex')}</head><body>`,
      );
      const filler = new TextEncoder().encode('<p>' + 'lorem ipsum '.repeat(5000) + '</p>\n');
      for (let sent = 0; sent < 10 * 1024 * 1024; sent += filler.length) {
        pulled++;
        yield filler;
      }
    }
    const result = await pagePolicy({ html: page() }, 'x');
    assert.equal(result.policy.index, false);
    assert.equal(result.html?.stoppedAt, 'head-end');
    assert.ok(pulled <= 2, `pulled ${pulled} body chunks`);
    assert.ok(result.html!.charsRead < 100_000);
  });

  test('a web ReadableStream is read only as far as needed too', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(
          new TextEncoder().encode(
            pulled === 1 ? head(meta('robots', 'nofollow')) : 'x'.repeat(65_536),
          ),
        );
        if (pulled > 200) controller.close();
      },
    });
    const result = await pagePolicy({ html: stream }, 'x');
    assert.equal(result.policy.follow, false);
    assert.ok(pulled < 5, `pulled ${pulled}`);
  });
});

describe('real-world pages (test/fixtures/meta)', () => {
  test('a news article: index with large previews; googlebot-news gets nosnippet; body tag ignored', async () => {
    const html = fixture('news-article.html');
    const google = await pagePolicy({ html }, 'Googlebot');
    assert.deepEqual(
      [google.policy.index, google.policy.maxImagePreview, google.policy.maxSnippet],
      [true, 'large', -1],
    );
    assert.equal((await pagePolicy({ html }, 'Googlebot-News')).policy.snippet, false);
  });

  test('a WordPress archive page: noindex, follow', async () => {
    const { policy, decidedBy } = await pagePolicy(
      { html: fixture('wordpress-noindex.html') },
      'Googlebot',
    );
    assert.deepEqual([policy.index, policy.follow, decidedBy.index?.line], [false, true, 5]);
  });

  test('an old-style shop page: upper case, unquoted attributes, per-crawler tags, an expiry', async () => {
    const html = fixture('shop-product.html');
    const google = (await pagePolicy({ html }, 'Googlebot')).policy;
    assert.deepEqual(
      [google.archive, google.imageIndex, google.translate, google.index],
      [false, false, false, true],
    );
    assert.equal(google.unavailableAfter?.toISOString(), '2026-12-31T23:59:59.000Z');
    assert.equal((await pagePolicy({ html }, 'bingbot')).policy.imageIndex, true);
  });

  test('a staging page without head or body tags: none', async () => {
    const { policy } = await pagePolicy({ html: fixture('staging.html') }, 'x');
    assert.deepEqual([policy.index, policy.follow], [false, false]);
  });
});
