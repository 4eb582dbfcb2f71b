/**
 * What a page's rules decide with robots.txt (crawlDecision, linkRel), its AI-usage signals,
 * and the Robots-Tag header (the directives themselves: page-policy.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crawlDecision, linkRel, pagePolicy } from '../../src/meta/index.ts';

const head = (...metas: string[]) =>
  `<!doctype html><html><head><title>t</title>${metas.join('')}</head><body>x</body></html>`;
const meta = (name: string, content: string) => `<meta name="${name}" content="${content}">`;

describe('crawlDecision and linkRel', () => {
  test('robots.txt disallows: nothing fetched, indexed or followed', async () => {
    const decision = await crawlDecision(
      { robots: { allowed: false, line: 3 }, html: head(meta('robots', 'all')) },
      'x',
    );
    assert.deepEqual(
      [decision.fetch, decision.index, decision.follow, decision.page],
      [false, false, false, undefined],
    );
    assert.match(decision.reasons[0]!, /robots\.txt disallows fetching \(line 3\)/);
  });

  test('fetched: the page rules decide; an expired unavailable_after means no index', async () => {
    const decision = await crawlDecision(
      {
        robots: { allowed: true },
        html: head(meta('robots', 'nofollow, unavailable_after: 2020-01-01')),
        now: new Date('2026-11-21'),
      },
      'x',
    );
    assert.deepEqual([decision.fetch, decision.index, decision.follow], [true, false, false]);
    assert.deepEqual(decision.reasons, [
      'past unavailable_after (meta robots, line 1: unavailable_after: 2020-01-01)',
      'nofollow (meta robots, line 1: nofollow)',
    ]);
  });

  test("a link's rel: nofollow, ugc, sponsored; a nofollow page covers every link", () => {
    assert.deepEqual(linkRel('NoFollow noopener'), {
      nofollow: true,
      ugc: false,
      sponsored: false,
      follow: false,
    });
    assert.deepEqual(linkRel('ugc'), {
      nofollow: false,
      ugc: true,
      sponsored: false,
      follow: false,
    });
    assert.equal(linkRel('sponsored').follow, false);
    assert.equal(linkRel('noopener noreferrer').follow, true);
    assert.equal(linkRel(null, { follow: false }).follow, false);
  });
});

describe('AI-usage on the page: noai, noimageai and the Content-Usage header', () => {
  test('noai and noimageai restrict the ai and imageAi fields, true unless restricted', async () => {
    const open = await pagePolicy({ html: head(meta('robots', 'index')) }, 'x');
    assert.deepEqual([open.policy.ai, open.policy.imageAi], [true, true]);
    const noai = await pagePolicy({ html: head(meta('robots', 'noai')) }, 'x');
    assert.deepEqual([noai.policy.ai, noai.policy.imageAi], [false, false]);
    assert.equal(noai.decidedBy.ai?.text, 'noai');
    const images = await pagePolicy({ headers: { 'x-robots-tag': 'noimageai' } }, 'x');
    assert.deepEqual([images.policy.ai, images.policy.imageAi], [true, false]);
    assert.deepEqual(images.problems, [], 'known directives, not unknown ones');
  });

  test('the Content-Usage response header gives train-ai and search preferences', async () => {
    const result = await pagePolicy({ headers: { 'content-usage': 'train-ai=n, search=y' } }, 'x');
    assert.deepEqual(result.contentUsage, { 'train-ai': 'disallowed', search: 'allowed' });
    const broken = await pagePolicy({ headers: { 'Content-Usage': 'Train-AI=n' } }, 'x');
    assert.deepEqual(broken.contentUsage, { 'train-ai': 'unknown', search: 'unknown' });
    assert.equal((await pagePolicy({ headers: {} }, 'x')).contentUsage, undefined);
  });
});

describe('the Robots-Tag header (draft-illyes-repext)', () => {
  const headers = { 'robots-tag': '*;nosnippet, ExampleBot;noindex' };

  test("the draft's example: * gets nosnippet, ExampleBot noindex and nosnippet", async () => {
    const example = await pagePolicy({ headers }, 'ExampleBot');
    assert.deepEqual([example.policy.index, example.policy.snippet], [false, false]);
    assert.equal(example.decidedBy.index?.field, 'Robots-Tag');
    const other = await pagePolicy({ headers }, 'OtherBot');
    assert.deepEqual([other.policy.index, other.policy.snippet], [true, false]);
  });

  test('joined with X-Robots-Tag and meta tags: the most restrictive wins', async () => {
    const result = await pagePolicy(
      {
        html: head(meta('robots', 'noarchive')),
        headers: { ...headers, 'x-robots-tag': 'nofollow' },
      },
      'ExampleBot',
    );
    const { index, snippet, archive, follow } = result.policy;
    assert.deepEqual([index, snippet, archive, follow], [false, false, false, false]);
  });

  test('past the 8 KiB limit, complete members count and the cut one does not; a broken List gives none', async () => {
    const filler = Array.from(
      { length: 900 },
      (_, i) => `Bot${String.fromCharCode(97 + (i % 26))};noarchive`,
    ).join(', ');
    const value = `ExampleBot;noindex, ${filler}, ExampleBot;nofollow`;
    assert.ok(value.length > 8 * 1024);
    const cut = await pagePolicy({ headers: { 'robots-tag': value } }, 'ExampleBot');
    assert.deepEqual(
      [cut.policy.index, cut.policy.follow],
      [false, true],
      'the member past the limit is ignored',
    );
    const broken = await pagePolicy({ headers: { 'robots-tag': '*;noindex,, x' } }, 'x');
    assert.equal(broken.policy.index, true);
  });
});
