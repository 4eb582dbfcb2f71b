/**
 * repkit's compiled engine (groups, merged selections, radix index) must give the same
 * verdicts and the same matching lines for any input.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { googleEscape } from '../../src/core/match/pattern.ts';
import { parse } from '../../src/core/index.ts';
import { googleOracle, posSetMatches } from '../helpers/google-oracle.ts';

// Small alphabets so that random files and URLs actually collide.
const pathChar = fc.constantFrom('/', 'a', 'b', '.', '*', '$', '?', '%', '4', '1', 'é', 'x');
const pathish = fc.array(pathChar, { maxLength: 8 }).map((cs) => cs.join(''));
const agentName = fc.constantFrom(
  'FooBot',
  'foobot',
  'BarBot',
  'Foo',
  '*',
  '* x',
  'FooBot/2.1',
  '',
  'Foo Bar',
);
const lineArb = fc.oneof(
  agentName.map((a) => `User-agent: ${a}`),
  pathish.map((p) => `Allow: ${p}`),
  pathish.map((p) => `Disallow: ${p}`),
  pathish.map((p) => `disalow ${p}`),
  fc.constant('Sitemap: https://example.com/s.xml'),
  fc.constant('Crawl-delay: 3'),
  fc.constant(''),
  fc.constant('# comment'),
  fc.constant('allow: /a/index.html'),
);
const eol = fc.constantFrom('\n', '\r\n', '\r');
const robotsArb = fc
  .array(fc.tuple(lineArb, eol), { maxLength: 14 })
  .map((lines) => lines.map(([l, e]) => l + e).join(''));
const urlArb = pathish.map((p) => `http://example.com/${p}`);
const callerAgent = fc.constantFrom('FooBot', 'foobot', 'BarBot', 'Foo', 'Foo Bar', 'QuxBot', '');

/** isAllowed, explain and verdict all give the oracle's verdict and matching line. */
function assertAgreesWithOracle(
  robots: ReturnType<typeof parse>,
  body: string,
  agent: string,
  url: string,
): void {
  const expected = googleOracle(body, agent, url);
  assert.equal(robots.isAllowed(url, agent), expected.allowed, url);
  const explained = robots.explain(url, agent);
  assert.equal(explained.allowed, expected.allowed, url);
  assert.equal(explained.line, expected.line, url);
  const { allowed, line, reason } = robots.verdict(url, agent);
  assert.deepEqual({ allowed, line }, expected, url);
  assert.equal(reason, explained.reason, url);
}

describe("compiled engine vs Google's streaming matcher", () => {
  test('same verdict and same matching line on random files', () => {
    fc.assert(
      fc.property(
        robotsArb,
        callerAgent,
        fc.array(urlArb, { minLength: 1, maxLength: 5 }),
        (body, agent, urls) => {
          const robots = parse(body);
          for (const url of urls) assertAgreesWithOracle(robots, body, agent, url);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('large selections agree before and after their rules are sorted into an index', () => {
    // A selection of more than 16 rules is scanned linearly for its first few checks and
    // sorted by literal prefix after that: both must give the oracle's answers.
    const ruleLine = fc.oneof(
      pathish.map((p) => `Allow: /${p}`),
      pathish.map((p) => `Disallow: /${p}`),
      fc.constant('allow: /a/index.html'),
      fc.constant('Disallow:'),
    );
    const largeFile = fc
      .tuple(agentName, fc.array(ruleLine, { minLength: 17, maxLength: 60 }), robotsArb)
      .map(([agent, rules, rest]) => `User-agent: ${agent}\n${rules.join('\n')}\n${rest}`);
    fc.assert(
      fc.property(
        largeFile,
        callerAgent,
        fc.array(urlArb, { minLength: 4, maxLength: 8 }),
        (body, agent, urls) => {
          const robots = parse(body);
          for (let round = 0; round < 3; round++) {
            for (const url of urls) assertAgreesWithOracle(robots, body, agent, url);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('values longer than the in-place limit agree, whether they differ, match or hold wildcards', () => {
    // Rules of one long directory (over 64 characters, where values are read in place only
    // for a difference) with short random tails, checked with paths of the same directory.
    const long = '/' + 'catalogue/'.repeat(7);
    const ruleLine = fc.oneof(
      pathish.map((p) => `Allow: ${long}${p}`),
      pathish.map((p) => `Disallow: ${long}${p}`),
      pathish.map((p) => `Disallow: ${p}`),
    );
    const file = fc
      .tuple(agentName, fc.array(ruleLine, { minLength: 1, maxLength: 30 }))
      .map(([agent, rules]) => `User-agent: ${agent}\n${rules.join('\n')}\n`);
    const longUrl = pathish.map((p) => `http://example.com${long}${p}`);
    fc.assert(
      fc.property(
        file,
        callerAgent,
        fc.array(fc.oneof(longUrl, urlArb), { minLength: 1, maxLength: 6 }),
        (body, agent, urls) => {
          const robots = parse(body);
          for (let round = 0; round < 2; round++) {
            for (const url of urls) assertAgreesWithOracle(robots, body, agent, url);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('the wildcard matcher agrees with the pos-set matcher', () => {
    fc.assert(
      fc.property(pathish, pathish, (pattern, rest) => {
        const path = '/' + rest;
        const robots = parse(`user-agent: *\ndisallow: ${pattern}\n`);
        const escaped = googleEscape(String.fromCharCode(...new TextEncoder().encode(pattern)));
        const expected = escaped.length > 0 && posSetMatches(path, escaped);
        assert.equal(!robots.isAllowed(`http://h${path}`, 'x'), expected, `${pattern} vs ${path}`);
      }),
      { numRuns: 5000 },
    );
  });
});
