/**
 * Every worked example in Google's "How Google interprets the robots.txt specification"
 * (../shared/spec/google-robots-txt.*.txt): the path table, the precedence table, the
 * user-agent table and the grouping examples, with the deciding rule checked, not only the
 * verdict.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/core/index.ts';

describe('URL matching based on path values (the path table)', () => {
  const table: [pattern: string, matching: string[], notMatching: string[]][] = [
    ['/', ['/', '/fish', '/a/b/c?d'], []],
    ['/*', ['/', '/fish', '/a/b/c?d'], []],
    ['/$', ['/'], ['/fish', '/?x']],
    [
      '/fish',
      [
        '/fish',
        '/fish.html',
        '/fish/salmon.html',
        '/fishheads',
        '/fishheads/yummy.html',
        '/fish.php?id=anything',
      ],
      ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish'],
    ],
    [
      '/fish*',
      [
        '/fish',
        '/fish.html',
        '/fish/salmon.html',
        '/fishheads',
        '/fishheads/yummy.html',
        '/fish.php?id=anything',
      ],
      ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish'],
    ],
    [
      '/fish/',
      ['/fish/', '/fish/?id=anything', '/fish/salmon.htm'],
      ['/fish', '/fish.html', '/animals/fish/', '/Fish/Salmon.asp'],
    ],
    [
      '/*.php',
      [
        '/index.php',
        '/filename.php',
        '/folder/filename.php',
        '/folder/filename.php?parameters',
        '/folder/any.php.file.html',
        '/filename.php/',
      ],
      ['/', '/windows.PHP'],
    ],
    [
      '/*.php$',
      ['/filename.php', '/folder/filename.php'],
      ['/filename.php?parameters', '/filename.php/', '/filename.php5', '/windows.PHP'],
    ],
    ['/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/Fish.PHP']],
  ];

  for (const [pattern, matching, notMatching] of table) {
    test(`disallow: ${pattern}`, () => {
      const robots = parse(`user-agent: *\ndisallow: ${pattern}\n`);
      for (const path of matching) {
        const verdict = robots.explain(`https://example.com${path}`, 'bot');
        assert.equal(verdict.allowed, false, `${pattern} should match ${path}`);
        assert.equal(verdict.line, 2);
        assert.equal(verdict.rule?.value, pattern);
      }
      for (const path of notMatching) {
        const verdict = robots.explain(`https://example.com${path}`, 'bot');
        assert.equal(verdict.allowed, true, `${pattern} should not match ${path}`);
        assert.equal(verdict.reason, 'no-matching-rule');
      }
    });
  }
});

describe('order of precedence for rules (the precedence table)', () => {
  const table: [url: string, rules: string, winner: string, allowed: boolean][] = [
    ['https://example.com/page', 'allow: /p\ndisallow: /', 'allow: /p', true],
    [
      'https://example.com/folder/page',
      'allow: /folder\ndisallow: /folder',
      'allow: /folder',
      true,
    ],
    ['https://example.com/page.htm', 'allow: /page\ndisallow: /*.htm', 'disallow: /*.htm', false],
    ['https://example.com/page.php5', 'allow: /page\ndisallow: /*.ph', 'allow: /page', true],
    ['https://example.com/', 'allow: /$\ndisallow: /', 'allow: /$', true],
    ['https://example.com/page.htm', 'allow: /$\ndisallow: /', 'disallow: /', false],
  ];
  for (const [url, rules, winner, allowed] of table) {
    test(`${url} with ${rules.replace('\n', ' + ')} → ${winner}`, () => {
      const verdict = parse(`user-agent: *\n${rules}\n`).explain(url, 'Googlebot');
      assert.equal(verdict.allowed, allowed);
      assert.equal(`${verdict.rule?.kind}: ${verdict.rule?.value}`, winner);
      const lines = rules.split('\n');
      assert.equal(verdict.line, lines.indexOf(winner) + 2);
    });
  }

  test('ties between equal-length rules are reported as a tie-break', () => {
    const verdict = parse('user-agent: *\nallow: /folder\ndisallow: /folder\n').explain(
      'https://example.com/folder/page',
      'x',
    );
    assert.equal(verdict.tieBreak, true);
    assert.deepEqual(
      verdict.matches.map((m) => [m.kind, m.length]),
      [
        ['allow', 7],
        ['disallow', 7],
      ],
    );
  });
});

describe('order of precedence for user agents (the user-agent table)', () => {
  const body =
    'user-agent: googlebot-news\n(group 1)\n\nuser-agent: *\n(group 2)\n\nuser-agent: googlebot\n(group 3)\n';
  // The placeholders are not rules; give each group a rule that names it.
  const robots = parse(
    body
      .replace('(group 1)', 'disallow: /group1')
      .replace('(group 2)', 'disallow: /group2')
      .replace('(group 3)', 'disallow: /group3'),
  );
  const table: [crawler: string, group: number][] = [
    ['googlebot-news', 1],
    ['googlebot', 3],
    ['Storebot-Google', 2],
    ['Googlebot-News', 1],
    ['otherbot', 2],
  ];
  for (const [crawler, group] of table) {
    test(`${crawler} follows group ${group}`, () => {
      const { groups, scope } = robots.groupsFor(crawler);
      assert.equal(groups.length, 1);
      assert.equal(groups[0]!.rules[0]!.value, `/group${group}`);
      assert.equal(scope, group === 2 ? 'global' : 'specific');
      assert.equal(robots.isAllowed(`https://example.com/group${group}`, crawler), false);
      for (const other of [1, 2, 3].filter((g) => g !== group)) {
        assert.equal(robots.isAllowed(`https://example.com/group${other}`, crawler), true);
      }
    });
  }

  test('googlebot/1.2 and googlebot* in a file are both the googlebot group', () => {
    for (const value of ['googlebot/1.2', 'googlebot*']) {
      const r = parse(`user-agent: ${value}\ndisallow: /x\nuser-agent: *\ndisallow: /y\n`);
      assert.equal(r.isAllowed('https://example.com/x', 'googlebot'), false);
      assert.equal(r.isAllowed('https://example.com/y', 'googlebot'), true);
    }
  });
});

describe('grouping of lines and rules', () => {
  test('four groups: a; b; e and f; h', () => {
    const robots = parse(
      'user-agent: a\ndisallow: /c\n\nuser-agent: b\ndisallow: /d\n\nuser-agent: e\nuser-agent: f\ndisallow: /g\n\nuser-agent: h\n',
    );
    assert.deepEqual(
      robots.groups.map((g) => g.agents),
      [['a'], ['b'], ['e', 'f'], ['h']],
    );
    assert.equal(robots.isAllowed('https://example.com/g', 'f'), false);
    assert.equal(robots.isAllowed('https://example.com/c', 'h'), true);
  });

  test('groups for the same agent merge; the * group is not merged in', () => {
    const robots = parse(
      'user-agent: googlebot-news\ndisallow: /fish\n\nuser-agent: *\ndisallow: /carrots\n\nuser-agent: googlebot-news\ndisallow: /shrimp\n',
    );
    for (const path of ['/fish', '/shrimp']) {
      assert.equal(robots.isAllowed(`https://example.com${path}`, 'googlebot-news'), false);
    }
    assert.equal(robots.isAllowed('https://example.com/carrots', 'googlebot-news'), true);
    assert.deepEqual(
      robots.explain('https://example.com/shrimp', 'googlebot-news').group?.lines,
      [1, 7],
    );
  });

  test('a sitemap line does not split a group: a and b share disallow: /', () => {
    const robots = parse(
      'user-agent: a\nsitemap: https://example.com/sitemap.xml\n\nuser-agent: b\ndisallow: /\n',
    );
    assert.equal(robots.groups.length, 1);
    assert.equal(robots.isAllowed('https://example.com/x', 'a'), false);
    assert.equal(robots.isAllowed('https://example.com/x', 'b'), false);
  });

  test('the introduction example: Googlebot may crawl /includes/, others may not', () => {
    const robots = parse(
      'User-agent: *\nDisallow: /includes/\n\nUser-agent: Googlebot\nAllow: /includes/\n',
    );
    assert.equal(robots.isAllowed('https://example.com/includes/a.js', 'Googlebot'), true);
    assert.equal(robots.isAllowed('https://example.com/includes/a.js', 'Bingbot'), false);
  });

  test('sitemaps: any number, any host, not bound to a group, non-ASCII kept readable', () => {
    const robots = parse(
      'user-agent: otherbot\ndisallow: /kale\n\nsitemap: https://example.com/sitemap.xml\nsitemap: https://cdn.example.org/other-sitemap.xml\nsitemap: https://ja.example.org/テスト-サイトマップ.xml\n',
    );
    assert.deepEqual(robots.sitemaps, [
      'https://example.com/sitemap.xml',
      'https://cdn.example.org/other-sitemap.xml',
      'https://ja.example.org/テスト-サイトマップ.xml',
    ]);
    assert.equal(robots.isAllowed('https://example.com/kale', 'otherbot'), false);
  });
});
