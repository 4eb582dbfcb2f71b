/**
 * A crawler's extras (crawl-delay, request-rate, Content-Signal) are read from its own
 * groups' lines, and only as far as needed: the answers equal those read from the whole
 * file's extras, in every form the body comes in, whether the whole list was read first or not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse, type RobotsTxt } from '../../src/core/index.ts';
import {
  CRAWL_DELAY_KEYS,
  parseCrawlDelay,
  parseRequestRate,
} from '../../src/core/model/extras.ts';

const agent = fc.constantFrom('*', 'FooBot', 'BarBot', 'foobot');
const extraLine = fc.constantFrom(
  'Crawl-delay: 2',
  'Crawl-delay: x',
  'crawl-delay: 0.5',
  'Crawl-Delay:',
  'Request-rate: 1/10s',
  'Request-rate: nope',
  'Content-Signal: search=yes, ai-train=no',
  'Content-Signal: ai-input=yes',
  'Host: example.com',
  '<div class="x">',
  'color: red; margin: 0',
);
const line = fc.oneof(
  { weight: 2, arbitrary: agent.map((a) => `User-agent: ${a}`) },
  { weight: 2, arbitrary: fc.constantFrom('Disallow: /a', 'Allow: /', 'Disallow:') },
  { weight: 4, arbitrary: extraLine },
);
const file = fc.array(line, { maxLength: 30 }).map((lines) => lines.join('\n') + '\n');

/** The reference: the whole file's extras, filtered to the groups the agent gets. */
function reference(robots: RobotsTxt, asked: string) {
  const chosen = new Set(robots.groupsFor(asked).groups.map((g) => robots.groups.indexOf(g)));
  const mine = robots.extras.filter((e) => e.group !== undefined && chosen.has(e.group));
  const delay = mine
    .filter((e) => CRAWL_DELAY_KEYS.has(e.key))
    .map((e) => parseCrawlDelay(e.value))
    .find((d) => d !== undefined);
  const rate = mine
    .filter((e) => e.key === 'request-rate')
    .map((e) => parseRequestRate(e.value))
    .find((r) => r !== undefined);
  return { delay, rate };
}

test("a crawler's extras read from its own groups equal the whole file's, filtered", () => {
  const names = ['FooBot', 'BarBot', 'Other', ['Other', 'BarBot']] as const;
  fc.assert(
    fc.property(file, fc.boolean(), (text, bytes) => {
      const body = bytes ? new TextEncoder().encode(text) : text;
      const lazy = parse(body);
      const answers = names.map((n) => ({
        delay: lazy.crawlDelay(n as string),
        rate: lazy.requestRate(n as string),
        signals: lazy.contentSignals(n as string),
      }));
      const eager = parse(body);
      void eager.extras; // the whole list read first
      names.forEach((n, i) => {
        const asked = n as string;
        assert.deepEqual(answers[i]!.delay, eager.crawlDelay(asked), `delay ${String(n)}`);
        assert.deepEqual(answers[i]!.rate, eager.requestRate(asked), `rate ${String(n)}`);
        assert.deepEqual(answers[i]!.signals, eager.contentSignals(asked), `signals ${String(n)}`);
        if (typeof n === 'string') {
          const expected = reference(eager, n);
          assert.equal(answers[i]!.delay, expected.delay, `reference delay ${n}`);
          assert.deepEqual(answers[i]!.rate, expected.rate, `reference rate ${n}`);
        }
      });
    }),
    { numRuns: 500 },
  );
});

test("group views made one at a time are the whole list's", () => {
  const robots = parse('User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /y\n');
  const one = robots.groupsFor('b').groups[0]!;
  assert.equal(robots.groups[1], one, 'the same view, not a copy');
  assert.deepEqual(robots.groupsFor('a').groups[0], robots.groups[0]);
});
