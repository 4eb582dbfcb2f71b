import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parse, requestTarget } from '../../src/core/index.ts';
import { pathParamsQuery } from '../../src/core/match/url.ts';

/** Each of these reaches a disallowed path once the URL is serialised as a client sends it. */
const SPELLINGS: [given: string, sent: string][] = [
  ['/public/../private/a', '/private/a'],
  ['/public/%2e%2e/private/b', '/private/b'],
  ['/public/%2E%2E/private/c', '/private/c'],
  ['/./private/d', '/private/d'],
  ['/public\\..\\private\\a', '/private/a'],
  ['/pri\tvate/b', '/private/b'],
  ['/pri\nvate/c', '/private/c'],
  ['/über/d', '/%C3%BCber/d'],
];

describe('requestTarget: the URL a crawler requests', () => {
  const robots = parse('User-agent: *\nDisallow: /private/\nDisallow: /über/\n');

  test('each odd spelling is checked as sent, and then disallowed', () => {
    for (const [given, sent] of SPELLINGS) {
      const target = requestTarget(`https://example.com${given}`)!;
      assert.equal(target.path, sent, JSON.stringify(given));
      assert.equal(target.url, `https://example.com${sent}`);
      assert.equal(target.changed, true);
      assert.equal(robots.isAllowed(target.url, 'bot'), false, JSON.stringify(given));
    }
  });

  test('a URL a person types is checked as a browser sends it, and says so', () => {
    const target = requestTarget('https://Example.com/café?q=ü#top')!;
    assert.deepEqual(target, {
      url: 'https://example.com/caf%C3%A9?q=%C3%BC',
      path: '/caf%C3%A9?q=%C3%BC',
      changed: true,
    });
    // Host case, user info, a fragment and an empty path change nothing that rules match.
    assert.equal(requestTarget('https://u:p@EXAMPLE.com/a?b#c')!.changed, false);
    assert.equal(requestTarget('https://example.com')!.path, '/');
    assert.equal(requestTarget('https://example.com')!.changed, false);
  });

  test('an empty query goes out with its `?` (undici fetch, browsers) or without (Node, got)', () => {
    const target = requestTarget('https://example.com/a?#frag')!;
    assert.equal(target.path, '/a?');
    assert.equal(target.url, 'https://example.com/a?');
    assert.equal(target.changed, false);
    assert.deepEqual(target.alternatives, ['https://example.com/a']);
    const robots = parse('User-agent: *\nDisallow: /a$\n');
    assert.equal(robots.isAllowed(target.alternatives![0]!, 'b'), false);
    // An empty fragment after an empty query, and a `?` only in the fragment.
    assert.deepEqual(requestTarget('https://example.com/b?#')!.alternatives, [
      'https://example.com/b',
    ]);
    assert.equal(requestTarget('https://example.com/b#?')!.alternatives, undefined);
    assert.equal(requestTarget('https://example.com/b?q')!.alternatives, undefined);
  });

  test('a path starting with // stays a path', () => {
    const target = requestTarget('https://example.com//private/x')!;
    assert.equal(target.path, '//private/x');
    assert.equal(pathParamsQuery(target.url), '//private/x');
  });

  test('no target for what no crawler can request', () => {
    for (const bad of [
      '/relative',
      'example.com/a',
      'mailto:a@b.c',
      'javascript:alert(1)',
      '',
      'http://',
    ]) {
      assert.equal(requestTarget(bad), undefined, bad);
    }
  });
});

describe('requestTarget agrees with what a client puts on the wire', () => {
  let server: Server;
  let origin: string;
  const seen: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.end('ok');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  test("for any path, fetch() requests exactly one of requestTarget(url)'s forms", async () => {
    const pieces = fc.constantFrom(
      'a',
      'private',
      '/',
      '..',
      '.',
      '%2e',
      '%2E%2e',
      '\\',
      '\t',
      '\n',
      'ü',
      'é',
      ' ',
      '"',
      '<',
      '{',
      '|',
      '^',
      '`',
      '?',
      '&',
      '=',
      '%',
      '%41',
      '%zz',
      ';',
      '#',
      "'",
      '\u0000',
      '*',
      '$',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { maxLength: 12 }), async (parts) => {
        const url = `${origin}/${parts.join('')}`;
        const target = requestTarget(url)!;
        seen.length = 0;
        await (await fetch(url)).text();
        // Node's fetch sends an empty query without its `?`: the alternative form.
        const alternative = target.alternatives?.[0]?.slice(origin.length);
        assert.deepEqual(seen, [alternative ?? target.path]);
        assert.equal(target.url, `${origin}${target.path}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('answers that do not depend on earlier questions', () => {
  const body = 'User-agent: a\nDisallow: /\n\nUser-agent: kbot\nDisallow: /k\n';

  test('lists of names never share a selection with another list', () => {
    const questions: unknown[] = [[], '', ['a', 'b'], 'a\nb', ['a\nb'], ['', ''], 'a', ['a']];
    const fresh = (agent: unknown) => parse(body).isAllowed('http://h/x', agent as string[]);
    const expected = questions.map(fresh);
    // Every order of asking one parsed file gives each question its fresh answer.
    fc.assert(
      fc.property(fc.array(fc.nat(questions.length - 1), { maxLength: 20 }), (order) => {
        const robots = parse(body);
        for (const i of order) {
          assert.equal(robots.isAllowed('http://h/x', questions[i] as string[]), expected[i]);
        }
      }),
    );
    assert.deepEqual(expected, [true, true, false, true, true, true, false, false]);
  });

  test('names are folded ASCII only: the Kelvin sign is no k', () => {
    const robots = parse(body);
    assert.equal(robots.isAllowed('http://h/k', 'KBOT'), false);
    assert.equal(robots.isAllowed('http://h/k', '\u212Abot'), true);
    assert.equal(parse(body, { profile: 'legacy' }).isAllowed('http://h/k', '\u212Abot'), true);
  });

  test('a NUL in the URL ends the path, as in Google matcher', () => {
    const robots = parse('User-agent: *\nDisallow: /a\n');
    assert.equal(robots.isAllowed('http://h/b\u0000/a', 'x'), true);
    assert.equal(robots.explain('http://h/b\u0000/a', 'x').path, '/b');
    assert.equal(robots.isAllowed('http://h/a\u0000b', 'x'), false);
    assert.equal(pathParamsQuery('http://h\u0000x/y'), '/y');
  });
});

describe('requestTarget: the one-scan path for URLs already serialised', () => {
  /** What the WHATWG parser gives, computed here the long way. */
  function parsed(url: string) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return undefined;
    }
    if (!['http:', 'https:', 'ftp:'].includes(u.protocol) || u.hostname === '') return undefined;
    // The parser's own serialisation, the fragment cut off: an empty query keeps its `?`.
    const href =
      u.hash === '' && !u.href.endsWith('#') ? u.href : u.href.slice(0, u.href.indexOf('#'));
    const origin = `${u.protocol}//${u.host}`;
    const path = href.slice(href.indexOf('/', u.protocol.length + 2));
    const target = { url: origin + path, path, changed: path !== pathParamsQuery(url) };
    const bare = u.pathname + u.search;
    return bare === path ? target : { ...target, alternatives: [origin + bare] };
  }

  test('agrees with the parser on any URL of the characters that matter', () => {
    const host = fc.constantFrom(
      'example.com',
      'a.b',
      'x',
      'EXAMPLE.com',
      'a..b',
      '.a',
      'a.',
      'xn--caf-dma.fr',
      'xn--zz.fr',
      '127.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '256.1.1.1',
      '010.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1.2.3.04',
      '0x7f.1',
      '1.2.3.4a',
      'a.0x1',
      'a-b.c1',
      'a'.repeat(64) + '.com',
      'ü.de',
    );
    const port = fc.constantFrom('', ':80', ':443', ':8080', ':0', ':08', ':65535', ':65536', ':');
    const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://');
    const piece = fc.constantFrom(
      '/',
      'a',
      'Z',
      '.',
      '..',
      '%2e',
      '%2E',
      '%41',
      '%',
      '?',
      '#',
      "'",
      '"',
      ' ',
      '\\',
      '\t',
      '|',
      '^',
      '`',
      '{',
      '<',
      'ü',
      ';',
      '=',
      '&',
      '~',
      '@',
      ':',
      '!',
      '$',
      '*',
      '+',
      ',',
      '(',
    );
    fc.assert(
      fc.property(scheme, host, port, fc.array(piece, { maxLength: 10 }), (s, h, p, parts) => {
        const url = `${s}${h}${p}/${parts.join('')}`;
        assert.deepEqual(requestTarget(url), parsed(url), JSON.stringify(url));
        // Past the scan's length bound the parser answers: the same, whichever path is taken.
        const long = `${s}${h}${p}/${'seg/'.repeat(70)}${parts.join('')}`;
        assert.deepEqual(requestTarget(long), parsed(long), JSON.stringify(long));
      }),
      { numRuns: 20_000 },
    );
  });
});
