/**
 * Crawler names as people give them (`Googlebot/2.1`, a whole User-Agent header): read as
 * robots.txt names crawlers by `crawlerName`, and flagged by `explain()`, which itself keeps
 * Google's exact comparison.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crawlerName, parse } from '../../src/core/index.ts';

describe('crawlerName', () => {
  test('a product token is kept as given, and so is *', () => {
    assert.deepEqual(crawlerName('Googlebot'), { token: 'Googlebot', given: 'Googlebot' });
    assert.deepEqual(crawlerName('*'), { token: '*', given: '*' });
  });

  test('a version is dropped, and a note says so', () => {
    const name = crawlerName('Googlebot/2.1');
    assert.equal(name.token, 'Googlebot');
    assert.match(name.note!, /"Googlebot\/2.1" is matched as its product token "Googlebot"/);
  });

  test('a User-Agent header gives its crawler: a known one first, browser products never', () => {
    const cases: [string, string][] = [
      ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        'GPTBot',
      ],
      ['Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)', 'ExampleBot'],
      ['ExampleBot/1.0 (+https://example.com/bot)', 'ExampleBot'],
      ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
    ];
    for (const [header, token] of cases) {
      const name = crawlerName(header);
      assert.equal(name.token, token, header);
      assert.match(name.note!, /User-Agent header/, header);
    }
  });

  test('a name with no product token stays as given, with a note', () => {
    const name = crawlerName('2bot');
    assert.equal(name.token, '2bot');
    assert.match(name.note!, /holds no product token/);
  });
});

describe('explain() and names that are not product tokens', () => {
  const robots = parse(
    'User-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: *\nDisallow: /x\n',
  );

  test("the comparison stays Google's: Googlebot/2.1 gets the * group", () => {
    assert.equal(robots.isAllowed('https://h/drafts/a', 'Googlebot/2.1'), true);
    assert.equal(robots.isAllowed('https://h/drafts/a', 'Googlebot'), false);
  });

  test('explain() says the name is not a product token, and which it probably meant', () => {
    const explained = robots.explain('https://h/drafts/a', 'Googlebot/2.1');
    assert.deepEqual(
      explained.agentNotes?.map((n) => [n.agent, n.meant]),
      [['Googlebot/2.1', 'Googlebot']],
    );
    assert.match(explained.agentNotes![0]!.message, /compared as given/);
    assert.equal(robots.explain('https://h/drafts/a', 'Googlebot').agentNotes, undefined);
  });
});
