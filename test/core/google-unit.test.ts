/**
 * The behaviours Google's own unit tests pin down (google/robotstxt robots_test.cc),
 * restated as repkit tests: same robots.txt bodies, agents, URLs and expectations.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isValidProductToken, parse } from '../../src/core/index.ts';

type Expectation = [agent: string, url: string, allowed: boolean];

function expectVerdicts(body: string, expectations: Expectation[]): void {
  const robots = parse(body);
  for (const [agent, url, allowed] of expectations) {
    assert.equal(robots.isAllowed(url, agent), allowed, `${agent} ${url} in:\n${body}`);
    // A fresh parse per question, as Google's matcher does, must agree with the cached one.
    assert.equal(parse(body).explain(url, agent).allowed, allowed, `explain ${agent} ${url}`);
  }
}

describe('system behaviour', () => {
  test('empty inputs', () => {
    const body = 'user-agent: FooBot\ndisallow: /\n';
    expectVerdicts('', [['FooBot', '', true]]);
    expectVerdicts(body, [
      ['', '', true],
      ['FooBot', '', false],
    ]);
    expectVerdicts('', [['', '', true]]);
  });
});

describe('line syntax', () => {
  test('key: value lines; a missing colon is accepted between two words', () => {
    const url = 'http://foo.bar/x/y';
    expectVerdicts('user-agent: FooBot\ndisallow: /\n', [['FooBot', url, false]]);
    expectVerdicts('foo: FooBot\nbar: /\n', [['FooBot', url, true]]);
    expectVerdicts('user-agent FooBot\ndisallow /\n', [['FooBot', url, false]]);
  });

  test('groups: rules outside groups are ignored, groups for one agent merge', () => {
    const body =
      'allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\n' +
      'disallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\n' +
      'allow: /z/\ndisallow: /\n';
    expectVerdicts(body, [
      ['FooBot', 'http://foo.bar/x/b', true],
      ['FooBot', 'http://foo.bar/z/d', true],
      ['FooBot', 'http://foo.bar/y/c', false],
      ['BarBot', 'http://foo.bar/y/c', true],
      ['BarBot', 'http://foo.bar/w/a', true],
      ['BarBot', 'http://foo.bar/z/d', false],
      ['BazBot', 'http://foo.bar/z/d', true],
      ['FooBot', 'http://foo.bar/foo/bar/', false],
      ['BarBot', 'http://foo.bar/foo/bar/', false],
      ['BazBot', 'http://foo.bar/foo/bar/', false],
    ]);
  });

  test('sitemap and unknown lines do not end a group', () => {
    for (const middle of ['Sitemap: https://foo.bar/sitemap', 'Invalid-Unknown-Line: unknown']) {
      const body = `User-agent: FooBot\n${middle}\nUser-agent: *\nDisallow: /\n`;
      expectVerdicts(body, [
        ['FooBot', 'http://foo.bar/', false],
        ['BarBot', 'http://foo.bar/', false],
      ]);
    }
  });

  test('keys are case-insensitive', () => {
    for (const body of [
      'USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n',
      'user-agent: FooBot\nallow: /x/\ndisallow: /\n',
      'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n',
    ]) {
      expectVerdicts(body, [
        ['FooBot', 'http://foo.bar/x/y', true],
        ['FooBot', 'http://foo.bar/a/b', false],
      ]);
    }
  });
});

describe('user-agent values', () => {
  test('valid names to obey are [A-Za-z_-]+', () => {
    for (const name of ['Foobot', 'Foobot-Bar', 'Foo_Bar']) assert.ok(isValidProductToken(name));
    for (const name of ['', 'ツ', 'Foobot*', ' Foobot ', 'Foobot/2.1', 'Foobot Bar']) {
      assert.ok(!isValidProductToken(name), name);
    }
  });

  test('values are case-insensitive and cut at the first character outside [A-Za-z_-]', () => {
    for (const body of [
      'User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n',
      'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n',
      'User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n',
    ]) {
      expectVerdicts(body, [
        ['Foo', 'http://foo.bar/x/y', true],
        ['Foo', 'http://foo.bar/a/b', false],
        ['foo', 'http://foo.bar/x/y', true],
        ['foo', 'http://foo.bar/a/b', false],
      ]);
    }
  });

  test('the value is used up to the first space; the caller name is compared whole', () => {
    const body = 'User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n';
    expectVerdicts(body, [
      ['Foo', 'http://foo.bar/x/y', true],
      ['Foo Bar', 'http://foo.bar/x/y', false],
    ]);
  });

  test('no matching group: the * group; no * group: everything allowed', () => {
    const url = 'http://foo.bar/x/y';
    expectVerdicts('', [['FooBot', url, true]]);
    const global = 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n';
    expectVerdicts(global, [
      ['FooBot', url, false],
      ['BarBot', url, true],
    ]);
    const onlySpecific =
      'user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n';
    expectVerdicts(onlySpecific, [['QuxBot', url, true]]);
  });
});

describe('allow and disallow values', () => {
  test('paths are case-sensitive', () => {
    expectVerdicts('user-agent: FooBot\ndisallow: /x/\n', [
      ['FooBot', 'http://foo.bar/x/y', false],
    ]);
    expectVerdicts('user-agent: FooBot\ndisallow: /X/\n', [['FooBot', 'http://foo.bar/x/y', true]]);
  });

  test('longest match wins; allow wins ties', () => {
    const url = 'http://foo.bar/x/page.html';
    const cases: [string, Expectation[]][] = [
      ['disallow: /x/page.html\nallow: /x/\n', [['FooBot', url, false]]],
      [
        'allow: /x/page.html\ndisallow: /x/\n',
        [
          ['FooBot', url, true],
          ['FooBot', 'http://foo.bar/x/', false],
        ],
      ],
      ['disallow: \nallow: \n', [['FooBot', url, true]]],
      ['disallow: /\nallow: /\n', [['FooBot', url, true]]],
      [
        'disallow: /x\nallow: /x/\n',
        [
          ['FooBot', 'http://foo.bar/x', false],
          ['FooBot', 'http://foo.bar/x/', true],
        ],
      ],
      ['disallow: /x/page.html\nallow: /x/page.html\n', [['FooBot', url, true]]],
      [
        'allow: /page\ndisallow: /*.html\n',
        [
          ['FooBot', 'http://foo.bar/page.html', false],
          ['FooBot', 'http://foo.bar/page', true],
        ],
      ],
      [
        'allow: /x/page.\ndisallow: /*.html\n',
        [
          ['FooBot', url, true],
          ['FooBot', 'http://foo.bar/x/y.html', false],
        ],
      ],
    ];
    for (const [rules, expectations] of cases) {
      expectVerdicts(`user-agent: FooBot\n${rules}`, expectations);
    }
    expectVerdicts('User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n', [
      ['FooBot', 'http://foo.bar/x/page', true],
      ['FooBot', 'http://foo.bar/y/page', false],
    ]);
  });

  test('encoding: rules are %-encoded, URLs are matched as given', () => {
    expectVerdicts(
      'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n',
      [['FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par', true]],
    );
    for (const allow of ['/foo/bar/ツ', '/foo/bar/%E3%83%84']) {
      expectVerdicts(`User-agent: FooBot\nDisallow: /\nAllow: ${allow}\n`, [
        ['FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true],
        ['FooBot', 'http://foo.bar/foo/bar/ツ', false],
      ]);
    }
    expectVerdicts('User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', [
      ['FooBot', 'http://foo.bar/foo/bar/baz', false],
      ['FooBot', 'http://foo.bar/foo/bar/%62%61%7A', true],
    ]);
  });

  test('special characters: * anywhere, $ at the end, # starts a comment', () => {
    expectVerdicts('User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', [
      ['FooBot', 'http://foo.bar/foo/bar/quz', false],
      ['FooBot', 'http://foo.bar/foo/quz', true],
      ['FooBot', 'http://foo.bar/foo//quz', true],
      ['FooBot', 'http://foo.bar/foo/bax/quz', true],
    ]);
    expectVerdicts('User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', [
      ['FooBot', 'http://foo.bar/foo/bar', false],
      ['FooBot', 'http://foo.bar/foo/bar/qux', true],
      ['FooBot', 'http://foo.bar/foo/bar/', true],
      ['FooBot', 'http://foo.bar/foo/bar/baz', true],
    ]);
    expectVerdicts('User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n', [
      ['FooBot', 'http://foo.bar/foo/bar', true],
      ['FooBot', 'http://foo.bar/foo/quz', false],
    ]);
  });

  test('Allow: .../index.html also allows the directory', () => {
    const body = 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n';
    expectVerdicts(body, [
      ['foobot', 'http://foo.com/allowed-slash/', true],
      ['foobot', 'http://foo.com/allowed-slash/index.htm', false],
      ['foobot', 'http://foo.com/allowed-slash/index.html', true],
      ['foobot', 'http://foo.com/anyother-url', false],
    ]);
  });

  test('lines are cut after 2083 × 8 bytes', () => {
    const maxLine = 2083 * 8;
    const disallow = 'disallow: ';
    const allow = 'allow: ';
    const pad = (prefix: string, fill: string) =>
      '/x/' + fill.repeat(maxLine - 3 - prefix.length + 1 - 3);
    {
      const longline = pad(disallow, 'a');
      const body = `user-agent: FooBot\n${disallow}${longline}/qux\n`;
      expectVerdicts(body, [
        ['FooBot', 'http://foo.bar/fux', true],
        ['FooBot', `http://foo.bar${longline}/fux`, false],
      ]);
    }
    {
      const a = pad(allow, 'a');
      const b = pad(allow, 'b');
      const body = `user-agent: FooBot\ndisallow: /\n${allow}${a}/qux\n${allow}${b}/qux\n`;
      expectVerdicts(body, [
        ['FooBot', 'http://foo.bar/', false],
        ['FooBot', `http://foo.bar${a}/qux`, true],
        ['FooBot', `http://foo.bar${b}/fux`, true],
      ]);
    }
  });
});

describe("examples from Google's documentation (robots_test.cc DocumentationChecks)", () => {
  const check = (allow: string, allowed: string[], disallowed: string[]) => {
    expectVerdicts(`user-agent: FooBot\ndisallow: /\nallow: ${allow}\n`, [
      ...allowed.map((path): Expectation => ['FooBot', `http://foo.bar${path}`, true]),
      ...disallowed.map((path): Expectation => ['FooBot', `http://foo.bar${path}`, false]),
    ]);
  };
  const fishAllowed = [
    '/fish',
    '/fish.html',
    '/fish/salmon.html',
    '/fishheads',
    '/fishheads/yummy.html',
    '/fish.html?id=anything',
  ];
  test('/fish and /fish*', () => {
    check('/fish', fishAllowed, ['/bar', '/Fish.asp', '/catfish', '/?id=fish']);
    check('/fish*', fishAllowed, ['/bar', '/Fish.bar', '/catfish', '/?id=fish']);
  });
  test('/fish/', () => {
    check(
      '/fish/',
      ['/fish/', '/fish/salmon', '/fish/?salmon', '/fish/salmon.html', '/fish/?id=anything'],
      ['/bar', '/fish', '/fish.html', '/Fish/Salmon.html'],
    );
  });
  test('/*.php, /*.php$, /fish*.php', () => {
    check(
      '/*.php',
      [
        '/filename.php',
        '/folder/filename.php',
        '/folder/filename.php?parameters',
        '//folder/any.php.file.html',
        '/filename.php/',
        '/index?f=filename.php/',
      ],
      ['/bar', '/php/', '/index?php', '/windows.PHP'],
    );
    check(
      '/*.php$',
      ['/filename.php', '/folder/filename.php'],
      [
        '/bar',
        '/filename.php?parameters',
        '/filename.php/',
        '/filename.php5',
        '/php/',
        '/filename?php',
        '/aaaphpaaa',
        '//windows.PHP',
      ],
    );
    check('/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/bar', '/Fish.PHP']);
  });
  test('order of precedence', () => {
    const url = 'http://example.com';
    expectVerdicts('user-agent: FooBot\nallow: /p\ndisallow: /\n', [
      ['FooBot', `${url}/page`, true],
    ]);
    expectVerdicts('user-agent: FooBot\nallow: /folder\ndisallow: /folder\n', [
      ['FooBot', `${url}/folder/page`, true],
    ]);
    expectVerdicts('user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n', [
      ['FooBot', `${url}/page.htm`, false],
    ]);
    expectVerdicts('user-agent: FooBot\nallow: /$\ndisallow: /\n', [
      ['FooBot', `${url}/`, true],
      ['FooBot', `${url}/page.html`, false],
    ]);
  });
});
