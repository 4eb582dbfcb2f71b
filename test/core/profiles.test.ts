import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/core/index.ts';

describe('profile rfc9309', () => {
  const allowAt = (rule: string, url: string) =>
    parse(`User-agent: *\nDisallow: /\nAllow: ${rule}\n`, { profile: 'rfc9309' }).isAllowed(
      url,
      'bot',
    );

  test('unreserved escapes are decoded on both sides; reserved ones stay encoded', () => {
    assert.equal(allowAt('/%62%61%7A', 'http://h/baz'), true);
    assert.equal(allowAt('/baz', 'http://h/%62%61%7a'), true);
    assert.equal(allowAt('/a%2Fb', 'http://h/a/b'), false);
    assert.equal(allowAt('/a%2fb', 'http://h/a%2Fb'), true);
  });

  test('%2A and %24 in a rule match a literal * and $', () => {
    assert.equal(allowAt('/file-with-a-%2A.html', 'http://h/file-with-a-*.html'), true);
    assert.equal(allowAt('/file-with-a-%2A.html', 'http://h/file-with-a-x.html'), false);
    assert.equal(allowAt('/price%24', 'http://h/price$'), true);
    assert.equal(allowAt('/*.html$', 'http://h/a.html'), true);
  });

  test('non-ASCII URL octets are encoded before comparison', () => {
    assert.equal(allowAt('/foo/ツ', 'http://h/foo/ツ'), true);
    assert.equal(allowAt('/foo/%E3%83%84', 'http://h/foo/ツ'), true);
  });

  test('reserved characters are encoded on both sides, the delimiters kept wherever they stand', () => {
    // RFC 9309 §2.2.2's example, /foo/bar?baz=http://foo.bar: its `:` is encoded, its `/`,
    // `?` and `=` kept (a `/` is one in the query as in the path, see rfc9309Normalize).
    const robots = parse('User-agent: *\nDisallow: /\n', { profile: 'rfc9309' });
    assert.equal(
      robots.explain('http://h/foo/bar?baz=http://foo.bar', 'x').path,
      '/foo/bar?baz=http%3A//foo.bar',
    );
    assert.equal(
      allowAt('/foo/bar?baz=http://foo.bar', 'http://h/foo/bar?baz=http%3A//foo.bar'),
      true,
    );
    assert.equal(
      allowAt('/foo/bar?baz=http%3a//foo.bar', 'http://h/foo/bar?baz=http://foo.bar'),
      true,
    );
    assert.equal(robots.explain('http://h/a/b?x=1&y=2', 'x').path, '/a/b?x=1&y=2');
    assert.equal(robots.explain('http://h/a:b;c', 'x').path, '/a%3Ab%3Bc');
    assert.equal(allowAt('/a:b', 'http://h/a%3ab'), true);
    assert.equal(allowAt('/a$b', 'http://h/a$b'), true, 'a $ before the end is literal');
  });

  test('a pattern whose * reaches into the query meets the query as written (as Google)', () => {
    // A rule without `?` used to be normalised as a path (its `=` and `&` encoded) while the
    // URL's query kept them: these failed open.
    const blocks = (rule: string, url: string) =>
      parse(`User-agent: *\nDisallow: ${rule}\n`, { profile: 'rfc9309' }).isAllowed(url, 'bot') ===
      false;
    for (const [rule, url] of [
      ['/*sessionid=', 'http://h/a?sessionid=1'],
      ['/*&sort=', 'http://h/list?page=2&sort=asc'],
      ['/*?c', 'http://h/a?b?c'],
      ['/*/x', 'http://h/a?b/x'],
      ['/a=b', 'http://h/a=b'],
    ]) {
      assert.ok(blocks(rule!, url!), `${rule} blocks ${url}`);
      assert.equal(parse(`User-agent: *\nDisallow: ${rule}\n`).isAllowed(url!, 'bot'), false);
    }
  });

  test('only /robots.txt itself is implicitly allowed, not with a query', () => {
    const robots = parse('User-agent: *\nDisallow: /\n', { profile: 'rfc9309' });
    assert.equal(robots.explain('http://h/robots.txt', 'x').reason, 'robots-txt-always-allowed');
    assert.equal(robots.isAllowed('http://h/robots.txt?x=1', 'x'), false);
  });

  test('User-agent: * foo is not the * group (the ABNF says "*")', () => {
    const body = 'User-agent: * foo\nDisallow: /\n';
    assert.equal(parse(body, { profile: 'rfc9309' }).isAllowed('http://h/x', 'bot'), true);
    assert.equal(
      parse(body, { profile: 'rfc9309' }).explain('http://h/x', 'bot').reason,
      'no-matching-group',
    );
    assert.equal(parse(body).isAllowed('http://h/x', 'bot'), false, 'Google reads it as *');
  });

  test('/robots.txt is always allowed; no index.html alias', () => {
    const robots = parse('User-agent: *\nDisallow: /\nAllow: /d/index.html\n', {
      profile: 'rfc9309',
    });
    assert.equal(robots.explain('http://h/robots.txt', 'x').reason, 'robots-txt-always-allowed');
    assert.equal(robots.isAllowed('http://h/d/', 'x'), false);
    assert.equal(
      parse('User-agent: *\nDisallow: /\n').isAllowed('http://h/robots.txt', 'x'),
      false,
    );
  });
});

describe('profile legacy (1996 standard)', () => {
  const legacy = (body: string) => parse(body, { profile: 'legacy' });

  test('first matching rule in file order wins', () => {
    const robots = legacy('User-agent: *\nDisallow: /private\nAllow: /private/public\n');
    assert.equal(robots.isAllowed('http://h/private/public/x', 'bot'), false);
    const verdict = robots.explain('http://h/private/public/x', 'bot');
    assert.equal(verdict.line, 2);
    assert.equal(verdict.reason, 'disallowed-by-rule');
    // The same file under Google's longest match:
    assert.equal(
      parse('User-agent: *\nDisallow: /private\nAllow: /private/public\n').isAllowed(
        'http://h/private/public/x',
        'bot',
      ),
      true,
    );
  });

  test("the chapter's example: Mary's Antiques", () => {
    const robots = legacy(
      '# comments\nUser-Agent: Suzy-Spider\nDisallow: /dynamic\nAllow: /private/suzy-stuff\nDisallow: /private\n\n' +
        'User-Agent: Furniture-Finder\nAllow: /dynamic/check-inventory\nDisallow: /dynamic\nDisallow: /private\n\n' +
        'User-Agent: *\nDisallow: /dynamic\nDisallow: /private\n',
    );
    const cases: [string, string, boolean][] = [
      ['Suzy-Spider', '/private/suzy-stuff/taxes.html', true],
      ['Suzy-Spider', '/private/other', false],
      ['Suzy-Spider', '/dynamic/check-inventory', false],
      ['Furniture-Finder', '/dynamic/check-inventory', true],
      ['Furniture-Finder', '/dynamic/other', false],
      ['Other-Bot', '/dynamic/check-inventory', false],
      ['Other-Bot', '/index.html', true],
    ];
    for (const [agent, path, allowed] of cases) {
      assert.equal(
        robots.isAllowed(`http://www.joes-hardware.com${path}`, agent),
        allowed,
        `${agent} ${path}`,
      );
    }
  });

  test('robot names match as case-insensitive substrings; the first such record is obeyed', () => {
    const robots = legacy('User-Agent: bot\nDisallow: /a\n\nUser-Agent: spambot\nDisallow: /b\n');
    for (const agent of ['Robot', 'Bottom-Feeder', 'Spambot', 'Dont-Bother-Me/1.0']) {
      assert.equal(robots.isAllowed('http://h/a', agent), false, agent);
      assert.equal(robots.isAllowed('http://h/b', agent), true, agent);
    }
  });

  test('a blank line ends a record; rules after it without a user-agent are ignored', () => {
    const robots = legacy('User-Agent: *\n\nDisallow: /\n');
    assert.equal(robots.isAllowed('http://h/x', 'bot'), true);
    assert.equal(parse('User-Agent: *\n\nDisallow: /\n').isAllowed('http://h/x', 'bot'), false);
  });

  test('no wildcards; %XX decoded except %2F', () => {
    const rule = (value: string, path: string) =>
      legacy(`User-Agent: *\nDisallow: ${value}\n`).isAllowed(`http://h${path}`, 'x') === false;
    assert.equal(rule('/tmp', '/tmpfile.html'), true);
    assert.equal(rule('/tmp/', '/tmp'), false);
    assert.equal(rule('/*.php', '/a.php'), false);
    assert.equal(rule('/*.php', '/*.php'), true);
    assert.equal(rule('/~fred/hi.html', '/%7Efred/hi.html'), true);
    assert.equal(rule('/%7Efred/hi.html', '/~fred/hi.html'), true);
    assert.equal(rule('/%7efred/hi.html', '/%7Efred/hi.html'), true);
    assert.equal(rule('/~fred/hi.html', '/~fred%2Fhi.html'), false);
  });

  test('an empty Disallow excludes nothing; /robots.txt is always allowed', () => {
    assert.equal(legacy('User-Agent: *\nDisallow:\n').isAllowed('http://h/x', 'a'), true);
    assert.equal(
      legacy('User-Agent: *\nDisallow: /\n').isAllowed('http://h/robots.txt', 'a'),
      true,
    );
  });
});
