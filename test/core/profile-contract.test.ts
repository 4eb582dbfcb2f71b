/**
 * What every profile must do, whatever its interpretation: one suite, run for each profile
 * in PROFILES (as the store contract is run for every store). Differences between profiles
 * are in profiles.test.ts; agreement with Google's matcher in oracle.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parse } from '../../src/core/index.ts';
import { PROFILES, type ProfileName } from '../../src/core/profiles/index.ts';

const pathChar = fc.constantFrom('/', 'a', 'b', '.', '*', '$', '?', '=', '%', '4', '1', 'é', ':');
const pathish = fc.array(pathChar, { maxLength: 8 }).map((cs) => cs.join(''));
const agentName = fc.constantFrom('FooBot', 'foobot', 'BarBot', '*', '* x', 'Jävla-Bot', '');
const line = fc.oneof(
  agentName.map((a) => `User-agent: ${a}`),
  pathish.map((p) => `Allow: ${p}`),
  pathish.map((p) => `Disallow: ${p}`),
  fc.constant(''),
  fc.constant('Crawl-delay: 2'),
  fc.constant('allow: /a/index.html'),
  pathish.map((p) => `Content-Usage: ${p} train-ai=n`),
  fc.constantFrom('Content-Usage: search=y', 'Content-Usage: Train-AI=n', 'Content-Usage: x=('),
);
const robotsArb = fc.array(line, { maxLength: 14 }).map((lines) => lines.join('\n') + '\n');
const urlArb = pathish.map((p) => `http://example.com/${p}`);
const callerAgent = fc.constantFrom('FooBot', 'barbot', 'Jävla-Bot', 'QuxBot');

for (const name of Object.keys(PROFILES) as ProfileName[]) {
  describe(`profile contract: ${name}`, () => {
    test('verdict(), isAllowed() and explain() give one answer; the deciding rule matched', () => {
      fc.assert(
        fc.property(
          robotsArb,
          callerAgent,
          fc.array(urlArb, { maxLength: 4 }),
          (body, agent, urls) => {
            const robots = parse(body, { profile: name });
            for (const url of urls) {
              const explained = robots.explain(url, agent);
              const verdict = robots.verdict(url, agent);
              assert.deepEqual(
                { allowed: verdict.allowed, line: verdict.line, reason: verdict.reason },
                { allowed: explained.allowed, line: explained.line, reason: explained.reason },
              );
              assert.equal(robots.isAllowed(url, agent), verdict.allowed);
              if (explained.rule) {
                assert.ok(explained.matches.some((m) => m.line === explained.rule!.line));
              }
              const none = robots.groupsFor(agent).scope === 'none';
              if (explained.reason !== 'robots-txt-always-allowed') {
                assert.equal(explained.reason === 'no-matching-group', none);
              }
            }
          },
        ),
        { numRuns: 1500 },
      );
    });

    test('no groups, or rules before any user-agent: everything allowed', () => {
      for (const body of ['', 'Disallow: /\n', '# nothing\nSitemap: https://h/s.xml\n']) {
        const verdict = parse(body, { profile: name }).verdict('http://h/x', 'FooBot');
        assert.deepEqual([verdict.allowed, verdict.reason], [true, 'no-matching-group']);
      }
    });

    test('a group for the crawler by its own name applies, in any case', () => {
      const robots = parse('User-agent: FooBot\nDisallow: /private\n', { profile: name });
      assert.equal(robots.isAllowed('http://h/private/x', 'foobot'), false);
      assert.equal(robots.isAllowed('http://h/public', 'FOOBOT'), true);
      assert.equal(robots.isAllowed('http://h/private/x', 'OtherBot'), true);
    });

    test('never throws, on any text or bytes, for any URL and agent', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 200 }),
            fc.uint8Array({ maxLength: 200 }),
          ),
          fc.string({ maxLength: 30 }),
          fc.string({ maxLength: 10 }),
          (body, url, agent) => {
            const robots = parse(body, { profile: name });
            robots.explain(url, agent);
            robots.verdict(`http://h/${url}`, [agent, 'x']);
            robots.contentUsage(`http://h/${url}`, agent);
            void robots.groups;
            void robots.extras;
          },
        ),
        { numRuns: 1000 },
      );
    });
  });
}
