/**
 * A large body of bytes (over `LARGE_BODY`) is read in pieces of about 64 KiB that each end
 * with a line break, and made one string only when something reads it again (see
 * `Source.ofLargeBytes`). Wherever the pieces fall (in a CRLF pair's neighbourhood, inside
 * runs of HTML lines, next to lines longer than a piece), the file must be the one its text
 * gives, which is read in one piece.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { snapshot } from '../helpers/parsed.ts';
import { parse, type RobotsTxt } from '../../src/core/index.ts';
import { LARGE_BODY, Source } from '../../src/core/text/source.ts';
import { MAX_LINE_BYTES } from '../../src/core/tokens/tokenizer.ts';

const utf8 = new TextEncoder();

const word = fc
  .array(fc.constantFrom('a', '/', 'é', 'ツ', '*', '$', '%41', ' ', '#', ':', 'index.html'), {
    maxLength: 5,
  })
  .map((p) => p.join(''));
const line = fc.oneof(
  word.map((w) => `User-agent: ${w}`),
  word.map((w) => `Disallow: /${w}`),
  word.map((w) => ` allow:/${w}`),
  word.map((w) => `Sitemap: https://h/${w}`),
  word.map((w) => `Crawl-delay: ${w}`),
  word.map((w) => `<div class="${w}">`),
  word,
);
const eol = fc.constantFrom('\n', '\r\n', '\r', '\n\n');
/** How a padding line begins: a long rule, agent or sitemap is cut as a long unknown line is. */
const lead = fc.constantFrom(
  '',
  'Disallow: /',
  'User-agent: ',
  'Sitemap: https://h/',
  'foo: ',
  '# ',
);
/** Lines of one kind repeated until they fill a stretch: the piece ends fall all over them. */
const stretch = fc
  .tuple(
    fc.array(fc.tuple(line, eol), { minLength: 1, maxLength: 6 }),
    // Short lines, lines of a few hundred bytes (longer than the step back to a line break),
    // lines either side of Google's line cut, and lines longer than a piece (up to strings
    // the engine keeps outside its ordinary memory).
    fc.oneof(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 200, max: 600 }),
      fc.integer({ min: MAX_LINE_BYTES - 30, max: MAX_LINE_BYTES + 30 }),
      fc.integer({ min: 60_000, max: 140_000 }),
      fc.integer({ min: 140_000, max: 300_000 }),
    ),
    lead,
    eol,
    fc.integer({ min: 1_000, max: 90_000 }),
  )
  .map(([lines, padding, start, end, size]) => {
    const block = lines.map(([l, e]) => l + e).join('') + start + 'x'.repeat(padding) + end;
    return block.repeat(Math.max(1, Math.ceil(size / block.length)));
  });
const body = fc
  .tuple(
    fc.constantFrom('', '\ufeff'),
    fc.array(stretch, { minLength: 1, maxLength: 5 }),
    // Some bodies end inside a long line, with no line break.
    fc.constantFrom('', 'Disallow: /end' + 'y'.repeat(200_000), 'z'.repeat(20_000)),
  )
  .map(([bom, parts, last]) => {
    const text = bom + 'User-agent: *\n' + parts.join('');
    // Over the size where pieces start, and no more than the bound parse reads by default.
    return (text.length > LARGE_BODY ? text : text + 'y\n'.repeat(LARGE_BODY)) + last;
  });

/** Paths a file's rules match or nearly match. */
function pathsFor(robots: RobotsTxt): string[] {
  const paths = ['/', '/a', '/x'];
  for (const group of robots.groups) {
    for (const rule of group.rules.slice(0, 20)) {
      paths.push(rule.pattern.replaceAll('*', 'z').replace(/\$$/, ''));
    }
  }
  return paths;
}

describe('a large body of bytes, read in pieces', () => {
  test('parses as its text does, in every profile, wherever the pieces fall', () => {
    fc.assert(
      fc.property(body, fc.constantFrom('google', 'rfc9309', 'legacy'), (text, profile) => {
        const bytes = utf8.encode(text);
        const fromBytes = parse(bytes, { profile, maxBytes: 4_000_000 });
        const fromText = parse(text, { profile, maxBytes: 4_000_000 });
        // Checked before anything else reads the file: a first check reads the rules where
        // they stand, in their pieces (see `Source.stretchAt`).
        for (const path of pathsFor(fromText)) {
          const url = `https://example.com${path.startsWith('/') ? '' : '/'}${path}`;
          const withRule = { withRule: true };
          assert.deepEqual(
            fromBytes.verdict(url, 'Bot', withRule),
            fromText.verdict(url, 'Bot', withRule),
            url,
          );
        }
        assert.deepEqual(snapshot(fromBytes), snapshot(fromText));
      }),
      { numRuns: 60 },
    );
  });

  test('cut at any size limit, as its text is', () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 0, max: 300_000 }), (text, back) => {
        const bytes = utf8.encode(text);
        const maxBytes = Math.max(LARGE_BODY + 1, bytes.length - back);
        assert.deepEqual(snapshot(parse(bytes, { maxBytes })), snapshot(parse(text, { maxBytes })));
      }),
      { numRuns: 30 },
    );
  });

  test('its stretches tile the text, each a piece of it, and the whole text is one stretch', () => {
    fc.assert(
      fc.property(body, (text) => {
        const bytes = utf8.encode(text);
        const source = Source.ofLargeBytes(bytes);
        for (let at = 0; at < source.length;) at += source.readPiece(at).length;
        const whole = Buffer.from(bytes).toString('latin1');
        let pieces = 0;
        for (let at = 0; at < source.length; pieces++) {
          const stretch = source.stretchAt(at);
          assert.equal(stretch.start, at);
          assert.ok(stretch.end > at && stretch.end <= source.length);
          assert.equal(stretch.text, whole.slice(stretch.start, stretch.end));
          // Every offset inside it finds it again.
          assert.equal(source.stretchAt(stretch.end - 1), stretch);
          at = stretch.end;
        }
        assert.ok(pieces > 1);
        assert.equal(source.text, whole);
        const joined = source.stretchAt(source.length - 1);
        assert.deepEqual(joined, { text: whole, start: 0, end: whole.length });
      }),
      { numRuns: 20 },
    );
  });

  test('keeps nothing of the caller’s buffer: reusing it afterwards changes nothing', () => {
    const text = 'User-agent: *\nDisallow: /private\n' + '<p>page</p>\n'.repeat(30_000);
    const bytes = utf8.encode(text);
    assert.ok(bytes.length > LARGE_BODY);
    const robots = parse(bytes);
    bytes.fill(0x41);
    assert.equal(robots.isAllowed('https://example.com/private/x', 'Bot'), false);
    assert.deepEqual(snapshot(robots), snapshot(parse(text)));
  });
});
