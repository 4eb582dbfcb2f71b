/**
 * A string body is tokenized as text (no conversion to bytes) while Google's limits are in
 * bytes: the 2083 × 8-byte line buffer and the 500 KiB body limit can fall inside a
 * character. Text and its UTF-8 bytes must parse to the same file, whatever they hold.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { snapshot } from '../helpers/parsed.ts';
import {
  bytesToByteString,
  displayText,
  NATIVE_BYTE_STRINGS,
  portableByteString,
  replaceLoneSurrogates,
  wellFormed,
} from '../../src/core/text/bytes.ts';
import { MAX_LINE_BYTES, tokenizeBody } from '../../src/core/tokenizer-entry.ts';
import { parse } from '../../src/core/index.ts';
import { PROFILES } from '../../src/core/profiles/index.ts';
import { parseBytes, parseDecoded } from '../../src/core/parse.ts';

const utf8 = new TextEncoder();

/** Characters of 1, 2, 3 and 4 UTF-8 bytes, a lone surrogate, and what the tokenizer acts on. */
const piece = fc.constantFrom('a', '/', 'é', 'ツ', '😀', '\ud800', ' ', '#', ':', '%41', '*', '$');
const word = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
const filler = fc.constantFrom('a', 'é', 'ツ', '😀', ' ');

/** A line long enough for Google's cut to fall at, before or after its end, on any character. */
const longLine = fc
  .tuple(
    fc.constantFrom('Disallow: /', 'Allow: /', 'User-agent: Bot', 'Sitemap: x', 'Foo: ', 'key '),
    filler,
    fc.integer({ min: -12, max: 12 }),
    word,
  )
  .map(([head, fill, shift, tail]) => {
    const size = utf8.encode(fill).length;
    const count = Math.max(0, Math.floor((MAX_LINE_BYTES - head.length) / size) + shift);
    return head + fill.repeat(count) + tail;
  });

const shortLine = fc.oneof(
  word.map((w) => `User-agent: ${w}`),
  word.map((w) => `Disallow: /${w}`),
  word.map((w) => `Allow: ${w}`),
  word.map((w) => `Crawl-delay: ${w}`),
  word.map((w) => `Sitemap: https://h/${w}`),
  word,
);
const body = fc
  .array(
    fc.tuple(
      fc.oneof({ weight: 3, arbitrary: shortLine }, { weight: 1, arbitrary: longLine }),
      fc.constantFrom('\n', '\r\n', '\r'),
    ),
    { maxLength: 8 },
  )
  .map((lines) => 'User-agent: *\n' + lines.map(([l, e]) => l + e).join(''));

describe('text and its UTF-8 bytes parse the same', () => {
  test('around the line cut, on characters of every width', () => {
    fc.assert(
      fc.property(body, (text) => {
        const bytes = utf8.encode(text);
        assert.deepEqual(snapshot(parse(text)), snapshot(parse(bytes)));
        assert.deepEqual(snapshot(parse(text)), snapshot(parseBytes(PROFILES.google, bytes)));
        // The path runtimes without a native byte string take (browsers, Workers, Deno).
        assert.deepEqual(snapshot(parse(text)), snapshot(parseDecoded(PROFILES.google, bytes)));
      }),
      { numRuns: 400 },
    );
  });

  test('in every profile: the same file, and the same verdicts for any agent and URL', () => {
    const agents = ['Jävla-Foobot', 'jÄvla', 'ツbot', 'a', 'é', 'Bot'];
    fc.assert(
      fc.property(body, fc.array(word, { minLength: 1, maxLength: 4 }), (text, paths) => {
        const bytes = utf8.encode(text);
        for (const profile of ['google', 'rfc9309', 'legacy'] as const) {
          const fromText = parse(text, { profile });
          const fromBytes = parseBytes(PROFILES[profile], bytes);
          assert.deepEqual(snapshot(fromText), snapshot(fromBytes), profile);
          for (const agent of agents) {
            for (const path of paths) {
              const url = `http://h/${path}`;
              assert.deepEqual(
                fromText.explain(url, agent),
                fromBytes.explain(url, agent),
                `${profile} ${agent} ${url}`,
              );
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('legacy: a non-ASCII user-agent name matches whether the file came as text or bytes', () => {
    const file = 'User-agent: Jävla-Foobot\nDisallow: /\n';
    for (const body of [file, utf8.encode(file)]) {
      for (const robots of [
        parse(body, { profile: 'legacy' }),
        parseBytes(PROFILES.legacy, body),
      ]) {
        assert.equal(robots.isAllowed('http://h/x', 'Jävla-Foobot'), false);
        assert.equal(robots.isAllowed('http://h/x', 'jävla-foobot/1.0'), false);
      }
    }
  });

  test('around the size limit', () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 0, max: 400 }), (text, back) => {
        const maxBytes = Math.max(0, utf8.encode(text).length - back);
        assert.deepEqual(
          snapshot(parse(text, { maxBytes })),
          snapshot(parse(utf8.encode(text), { maxBytes })),
        );
        assert.deepEqual(
          snapshot(parse(text, { maxBytes })),
          snapshot(parseBytes(PROFILES.google, utf8.encode(text), maxBytes)),
        );
        assert.deepEqual(
          snapshot(parse(text, { maxBytes })),
          snapshot(parseDecoded(PROFILES.google, utf8.encode(text), maxBytes)),
        );
      }),
      { numRuns: 400 },
    );
  });

  test('a rule cut inside a character keeps its leading bytes, %-escaped', () => {
    const head = 'Disallow: /';
    const fill = 'a'.repeat(MAX_LINE_BYTES - head.length - 1);
    const robots = parse(`User-agent: *\n${head}${fill}ツ/more\n`);
    const [rule] = robots.groups[0]!.rules;
    // ツ is E3 83 84: only E3 fits in the line buffer.
    assert.equal(rule!.pattern, `/${fill}%E3`);
    assert.equal(robots.isAllowed(`http://h/${fill}%E3%83%84`, 'bot'), false);
    assert.equal(robots.isAllowed(`http://h/${fill}`, 'bot'), true);
  });
});

describe('lone surrogates', () => {
  test('read as U+FFFD, with or without the engine’s toWellFormed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const expected = new TextDecoder('utf-8', { ignoreBOM: true }).decode(utf8.encode(text));
        assert.equal(wellFormed(text), expected);
        assert.equal(replaceLoneSurrogates(text), expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('lines that can only be unknown keys', () => {
  // parse() keeps such lines untokenized and tokenizes them when extras are read; the result
  // must be what tokenizeBody, which tokenizes every line for any handler, reports.
  const piece = fc.constantFrom(
    'x',
    'U',
    'd',
    'Host',
    '<div',
    ' ',
    '\t',
    ':',
    '#',
    '\0',
    'é',
    '😀',
  );
  const line = fc.oneof(
    fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
    fc.constantFrom('User-agent: a', 'Disallow: /p', 'Crawl-delay: 5', '  noindex: /q'),
    fc.integer({ min: -3, max: 3 }).map((d) => 'k: ' + 'v'.repeat(MAX_LINE_BYTES - 3 + d) + ':x'),
  );
  const bodies = fc
    .array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 10 })
    .map((lines) => lines.map(([l, e]) => l + e).join(''));

  test('extras equal the unknown keys of a full tokenization', () => {
    fc.assert(
      fc.property(bodies, (body) => {
        const expected: [string, string, number][] = [];
        tokenizeBody(body, {
          directive(d) {
            if (d.kind === 'unknown') {
              expected.push([displayText(d.key).toLowerCase(), displayText(d.value), d.line]);
            }
          },
        });
        const extras = parse(body).extras.map((e) => [e.key, e.value, e.line]);
        assert.deepEqual(extras, expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('bytes to a byte string', () => {
  test('the native copy (Node) gives what the portable one gives, any bytes, any offset', () => {
    assert.ok(NATIVE_BYTE_STRINGS, 'Node has Buffer: the native copy is in use');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20_000 }), fc.nat(16), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        const portable = portableByteString(view);
        assert.equal(portable.length, view.length);
        for (let i = 0; i < view.length; i++) assert.equal(portable.charCodeAt(i), view[i]);
        assert.equal(bytesToByteString(view), portable);
      }),
      { numRuns: 200 },
    );
  });
});
