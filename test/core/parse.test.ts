import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidInputError, parse, RepkitError } from '../../src/core/index.ts';

describe('explain(): lines as Google counts them', () => {
  test('CRLF, CR and BOM do not shift line numbers', () => {
    const bom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('User-agent: *\r\n\r\nDisallow: /a\rAllow: /a/b\n'),
    ]);
    const robots = parse(bom);
    assert.equal(robots.explain('http://h/a/x', 'x').line, 3);
    assert.equal(robots.explain('http://h/a/b', 'x').line, 4);
    assert.equal(robots.explain('http://h/z', 'x').line, 0);
  });

  test('an empty Disallow never disallows, but is the matching line, as in Google', () => {
    const verdict = parse('User-agent: *\nDisallow:\n').explain('http://h/x', 'bot');
    assert.deepEqual(
      [verdict.allowed, verdict.line, verdict.reason],
      [true, 2, 'no-matching-rule'],
    );
  });

  test('no group for the agent and no * group', () => {
    const verdict = parse('User-agent: a\nDisallow: /\n').explain('http://h/x', 'b');
    assert.deepEqual(
      [verdict.allowed, verdict.line, verdict.reason, verdict.group],
      [true, 0, 'no-matching-group', undefined],
    );
  });

  test('a specific group with no rules still beats *', () => {
    const robots = parse('User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n');
    const verdict = robots.explain('http://h/x', 'FooBot');
    assert.deepEqual(
      [verdict.allowed, verdict.reason, verdict.group?.scope],
      [true, 'no-matching-rule', 'specific'],
    );
  });

  test('several names act as one crawler', () => {
    const robots = parse(
      'User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: *\nDisallow: /\n',
    );
    assert.equal(robots.isAllowed('http://h/a', ['a', 'b']), false);
    assert.equal(robots.isAllowed('http://h/b', ['x', 'b']), false);
    assert.equal(robots.isAllowed('http://h/c', ['a', 'b']), true);
    assert.equal(robots.isAllowed('http://h/c', []), false);
  });
});

describe("Google's index.html aliases", () => {
  // Aliases end in `/$`: a selection looks for them when it first meets a path ending in `/`,
  // so the alias must count however many other paths were checked before.
  const filler = Array.from({ length: 40 }, (_, i) => `Disallow: /f${i}`).join('\n');
  const bodies = {
    'one group': 'User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n',
    'two groups for one crawler':
      'User-agent: a\nDisallow: /d/\n\nUser-agent: x\nDisallow: /e\n\nUser-agent: a\nAllow: /d/index.html\n',
    'a group sorted into its index': `User-agent: a\n${filler}\nDisallow: /d/\nAllow: /d/index.html\n`,
  };
  for (const [name, body] of Object.entries(bodies)) {
    test(`${name}: the alias answers after other paths were checked`, () => {
      const robots = parse(body);
      // Enough checks first for a large selection to be sorted.
      for (let i = 0; i < 10; i++) assert.equal(robots.isAllowed('http://h/d/x', 'a'), false);
      assert.equal(robots.isAllowed('http://h/d/', 'a'), true);
      assert.equal(robots.explain('http://h/d/', 'a').rule?.aliasOf, '/d/index.html');
      assert.equal(robots.isAllowed('http://h/d/x', 'a'), false);
      assert.equal(robots.isAllowed('http://h/d/index.html', 'a'), true);
    });
  }

  test('many aliases, wildcards among them, sorted into an index of their own', () => {
    const allows = Array.from({ length: 40 }, (_, i) => `Allow: /d${i}/index.html`);
    const body = `User-agent: a\nDisallow: /\n${allows.join('\n')}\nAllow: /*/w/index.htm\nDisallow: /d7/$\n`;
    const robots = parse(body);
    // Every path ends in `/`, checked often enough for both indexes to be sorted.
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 40; i++) {
        // `/d7/$` ties with its alias: the allow wins.
        assert.equal(robots.isAllowed(`http://h/d${i}/`, 'a'), true, `/d${i}/`);
        assert.equal(robots.isAllowed(`http://h/d${i}/x/`, 'a'), false, `/d${i}/x/`);
      }
      assert.equal(robots.isAllowed('http://h/q/w/', 'a'), true);
      assert.equal(robots.isAllowed('http://h/q/w/x/', 'a'), false);
    }
    const explained = robots.explain('http://h/d7/', 'a');
    assert.deepEqual(
      explained.matches.map((m) => [m.line, m.pattern]),
      [
        [2, '/'],
        [10, '/d7/$'],
        [44, '/d7/$'],
      ],
    );
    assert.equal(explained.rule?.aliasOf, '/d7/index.html');
    assert.equal(explained.allowed, true);
    assert.equal(explained.tieBreak, true);
    assert.equal(robots.explain('http://h/q/w/', 'a').rule?.aliasOf, '/*/w/index.htm');
  });
});

describe('limits and odd input', () => {
  test('content past 512,000 bytes is ignored; the limit is an option', () => {
    const head = 'User-agent: *\nDisallow: /a\n';
    const body = head + '#'.repeat(512_000 - head.length) + '\nDisallow: /b\n';
    const robots = parse(body);
    assert.deepEqual(robots.bytes, { total: body.length, read: 512_000 });
    assert.equal(robots.isAllowed('http://h/b', 'x'), true);
    assert.equal(robots.isAllowed('http://h/a', 'x'), false);
    assert.equal(parse(body, { maxBytes: 1_000_000 }).isAllowed('http://h/b', 'x'), false);
    assert.equal(parse(head, { maxBytes: 20 }).isAllowed('http://h/a', 'x'), true);
  });

  test('bytes counts UTF-8 bytes of text, short or cut at the limit', () => {
    // Short text is not measured while parsing (it cannot reach the limit): counted on demand.
    const body = 'User-agent: *\nDisallow: /café/ツ/😀\n';
    const size = new TextEncoder().encode(body).length;
    assert.deepEqual(parse(body).bytes, { total: size, read: size });
    assert.deepEqual(parse(body, { maxBytes: 10 }).bytes, { total: size, read: 10 });
    assert.equal(parse(body).isAllowed('http://h/caf%C3%A9/%E3%83%84/%F0%9F%98%80', 'x'), false);
  });

  test('whitespace between a key and its colon: the same directive, from bytes and from text', () => {
    const body = [
      'User-agent :\tExampleBot',
      'Disallow \t: /x/',
      'Allow\v:/x/y',
      'Sitemap  : https://example.com/s.xml',
      'Disallow # : /comment',
      'Disallow x: /prefix',
      'user-agent\f : Other',
      'DISALLOW :',
    ].join('\n');
    const view = (robots: ReturnType<typeof parse>) => [
      robots.groups.map((g) => [g.agents, g.rules.map((r) => [r.kind, r.line, r.value])]),
      robots.sitemaps,
      robots.extras.map((e) => [e.key, e.line]),
    ];
    const fromBytes = view(parse(new TextEncoder().encode(body)));
    assert.deepEqual(fromBytes, view(parse(body)));
    assert.deepEqual(fromBytes[0], [
      [
        ['ExampleBot'],
        [
          ['disallow', 2, '/x/'],
          ['allow', 3, '/x/y'],
          // Google's key is a prefix: `Disallow x` reads as disallow.
          ['disallow', 6, '/prefix'],
        ],
      ],
      [['Other'], [['disallow', 8, '']]],
    ]);
    assert.deepEqual(fromBytes[1], ['https://example.com/s.xml']);
    const robots = parse(new TextEncoder().encode(body));
    assert.equal(robots.isAllowed('https://example.com/x/z', 'ExampleBot'), false);
    assert.equal(robots.isAllowed('https://example.com/x/y', 'ExampleBot'), true);
  });

  test('bytes after a NUL on a line are ignored', () => {
    const robots = parse('User-agent: *\nDisallow: /a\0/b\n');
    assert.equal(robots.isAllowed('http://h/a/c', 'x'), false);
    assert.equal(robots.groups[0]!.rules[0]!.value, '/a');
  });

  test('invalid UTF-8 is matched byte for byte, as %-escapes', () => {
    const robots = parse(
      new Uint8Array([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9, 0x0a]),
    );
    assert.equal(robots.isAllowed('http://h/caf%E9', 'x'), false);
    assert.equal(robots.isAllowed('http://h/caf%C3%A9', 'x'), true);
    assert.equal(robots.groups[0]!.rules[0]!.pattern, '/caf%E9');
  });

  test('isAllowed and explain never throw on odd URLs and agents', () => {
    const robots = parse('User-agent: *\nDisallow: /x\n');
    for (const url of ['', '#', '?', '::::', 'http://', '/\u0000', '\ud800', 'x'.repeat(100_000)]) {
      for (const agent of ['', ' ', 'a b', '42', '\u0000', '*']) {
        assert.equal(typeof robots.isAllowed(url, agent), 'boolean');
        assert.equal(typeof robots.explain(url, agent).line, 'number');
      }
    }
    assert.equal(
      robots.isAllowed(undefined as unknown as string, undefined as unknown as string),
      true,
    );
  });

  test('a body that is not text or bytes, or a bad option, is a typed error naming the field', () => {
    assert.throws(
      () => parse(42 as unknown as string),
      (e: unknown) =>
        e instanceof InvalidInputError && e.field === 'body' && e instanceof RepkitError,
    );
    assert.throws(
      () => parse('', { profile: 'bing' as 'google' }),
      (e: unknown) => e instanceof InvalidInputError && e.field === 'options.profile',
    );
    assert.throws(
      () => parse('', { maxBytes: -1 }),
      (e: unknown) => e instanceof InvalidInputError && e.field === 'options.maxBytes',
    );
  });

  test('ArrayBuffer bodies', () => {
    const buffer = new TextEncoder().encode('User-agent: *\nDisallow: /\n').buffer;
    assert.equal(parse(buffer as ArrayBuffer).isAllowed('http://h/', 'x'), false);
  });
});

describe('extras: the lines Google ignores', () => {
  const robots = parse(
    'Host: www.example.com\nUser-agent: *\nCrawl-delay: 10\nRequest-rate: 1/5s\nContent-Signal: search=yes, ai-train=no\nDisallow: /x\n\n' +
      'User-agent: Yandex\nCrawl-delay: 0.5\nClean-param: ref&utm_source /shop\nDisallow:\n',
  );

  test('crawl-delay and request-rate per group', () => {
    assert.equal(robots.crawlDelay('Googlebot'), 10);
    assert.equal(robots.crawlDelay('Yandex'), 0.5);
    assert.deepEqual(robots.requestRate('x'), { requests: 1, seconds: 5 });
    assert.equal(robots.requestRate('Yandex'), undefined);
    assert.equal(parse('User-agent: *\nCrawl-delay: soon\n').crawlDelay('x'), undefined);
  });

  test('host, clean-param, content-signal', () => {
    assert.equal(robots.host, 'www.example.com');
    assert.deepEqual(robots.cleanParams, [
      { params: ['ref', 'utm_source'], path: '/shop', line: 10 },
    ]);
    assert.deepEqual(robots.contentSignals('x'), { search: true, 'ai-train': false });
    assert.equal(robots.contentSignals('Yandex'), undefined);
    // Cloudflare's newer use= value is kept as its value, beside the yes/no signals.
    const signals = parse(
      'User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no, use=reference\nAllow: /\n',
    ).contentSignals('x');
    assert.deepEqual(signals, {
      search: true,
      'ai-input': true,
      'ai-train': false,
      use: 'reference',
    });
  });

  test('Content-Signal before any User-agent speaks for every group without its own, and for crawlers no group names', () => {
    const file = parse(
      'Content-Signal: ai-train=no, search=yes\n\nUser-agent: *\nAllow: /\n\n' +
        'User-agent: GPTBot\nContent-Signal: ai-train=yes\nDisallow: /private/\n',
    );
    assert.deepEqual(file.contentSignals('*'), { 'ai-train': false, search: true });
    assert.deepEqual(file.contentSignals('Googlebot'), { 'ai-train': false, search: true });
    // GPTBot's group has its own line: the file's does not speak for it.
    assert.deepEqual(file.contentSignals('GPTBot'), { 'ai-train': true });
    assert.deepEqual(
      file.contentSignalLines('GPTBot').map((l) => [l.extra.line, l.fileLevel]),
      [[7, false]],
    );
    // Only at the top: no group at all.
    assert.deepEqual(parse('Content-Signal: ai-train=no\n').contentSignals('GPTBot'), {
      'ai-train': false,
    });
  });

  test('every extra keeps its key, value, line and group', () => {
    assert.deepEqual(robots.extras[0], {
      key: 'host',
      value: 'www.example.com',
      line: 1,
      group: undefined,
    });
    assert.deepEqual(
      robots.extras.find((e) => e.line === 9),
      { key: 'crawl-delay', value: '0.5', line: 9, group: 1 },
    );
  });
});

test('explain names the * rules a crawler with its own group ignores; verdicts and memo unchanged', () => {
  const robots = parse(
    'User-agent: *\nDisallow: /private/\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /tmp/\n',
  );
  assert.equal(robots.isAllowed('https://a.example/private/x', 'Googlebot'), true);
  const e = robots.explain('https://a.example/private/ok', 'Googlebot');
  assert.equal(e.allowed, true);
  assert.deepEqual(
    e.ignoredGlobalRules?.map((m) => [m.line, m.kind, m.value]),
    [
      [2, 'disallow', '/private/'],
      [3, 'allow', '/private/ok'],
    ],
  );
  // The crawler's own selection is still the one remembered: its next verdict is its own.
  assert.equal(robots.isAllowed('https://a.example/tmp/x', 'Googlebot'), false);
  assert.equal(robots.isAllowed('https://a.example/private/x', 'Googlebot'), true);
  // Not said when the * group applies, or matches nothing.
  assert.equal(
    robots.explain('https://a.example/private/x', 'Otherbot').ignoredGlobalRules,
    undefined,
  );
  assert.equal(
    robots.explain('https://a.example/public', 'Googlebot').ignoredGlobalRules,
    undefined,
  );
});
