/**
 * The 4,231 real robots.txt files in ../shared/corpus: every one parses under every profile
 * without throwing, as text the same as as bytes, and on real files the compiled engine
 * agrees with Google's streaming matcher (the oracle) for URLs built from each file's own
 * rules.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import { PROFILES } from '../../src/core/profiles/index.ts';
import { parseBytes, parseDecoded } from '../../src/core/parse.ts';
import { googleOracle } from '../helpers/google-oracle.ts';
import { SHARED } from '../helpers/shared.ts';

const dir = join(SHARED, 'corpus/robots');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort();
const AGENTS = ['Googlebot', 'Bingbot', 'GPTBot', 'SomeUnknownBot'];

/** URLs a file's own rules talk about, with their wildcards filled in. */
function urlsFor(robots: ReturnType<typeof parse>): string[] {
  const paths = new Set<string>(['/', '/index.html', '/search?q=x']);
  for (const group of robots.groups) {
    for (const rule of group.rules.slice(0, 20)) {
      const path = rule.value.replace(/\*/g, 'x').replace(/\$$/, '');
      paths.add(path.startsWith('/') ? path : `/${path}`);
      paths.add(`${path}/deeper?x=1`);
    }
  }
  return [...paths]
    .slice(0, 60)
    .map((p) => `https://example.com${p.startsWith('/') ? p : `/${p}`}`);
}

describe('real-world corpus', () => {
  test('the corpus is there', () => {
    assert.ok(files.length >= 4000, `found ${files.length} files in ${dir}`);
  });

  test('every file parses under every profile and answers without throwing', () => {
    for (const file of files) {
      const body = readFileSync(join(dir, file));
      for (const profile of ['google', 'rfc9309', 'legacy'] as const) {
        const robots = parse(body, { profile });
        assert.ok(robots.lineCount >= 1, file);
        for (const agent of AGENTS) {
          const verdict = robots.explain('https://example.com/some/path?q=1', agent);
          assert.equal(
            verdict.allowed,
            robots.isAllowed('https://example.com/some/path?q=1', agent),
            `${file} ${profile}`,
          );
        }
      }
    }
  });

  test('on every 10th file, verdicts and lines equal the streaming oracle', () => {
    let checks = 0;
    for (const file of files.filter((_, i) => i % 10 === 0)) {
      const body = readFileSync(join(dir, file));
      const robots = parse(body);
      for (const url of urlsFor(robots)) {
        for (const agent of AGENTS) {
          const expected = googleOracle(new Uint8Array(body), agent, url);
          const verdict = robots.explain(url, agent);
          assert.equal(verdict.allowed, expected.allowed, `${file} ${agent} ${url}`);
          assert.equal(verdict.line, expected.line, `${file} ${agent} ${url} line`);
          assert.equal(robots.isAllowed(url, agent), expected.allowed);
          checks++;
        }
      }
    }
    assert.ok(checks > 10_000, `${checks} checks`);
  });

  test('on every 7th file, verdict(url, agent, { withRule: true }) is explain() without the rest', () => {
    let ruled = 0;
    for (const file of files.filter((_, i) => i % 7 === 0)) {
      const robots = parse(readFileSync(join(dir, file)));
      for (const url of urlsFor(robots)) {
        for (const agent of AGENTS) {
          const { allowed, line, reason, rule } = robots.explain(url, agent);
          const verdict = robots.verdict(url, agent, { withRule: true });
          assert.deepEqual(
            verdict,
            { allowed, line, reason, ...(rule ? { rule } : {}) },
            `${file} ${agent} ${url}`,
          );
          if (rule) ruled++;
        }
      }
    }
    assert.ok(ruled > 5_000, `${ruled} verdicts with a rule`);
  });

  test('every valid UTF-8 file parses the same as text and as bytes, extras and all', () => {
    // Text is tokenized without conversion, HTML lines are kept untokenized until extras are
    // read: on real files the result must be the byte-level parse's, field for field. (A file
    // that is not UTF-8 has no text form that stands for its bytes.)
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let compared = 0;
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(join(dir, file)));
      let text: string;
      try {
        text = strict.decode(bytes);
      } catch {
        continue;
      }
      // parse(bytes) takes the byte path where the runtime makes byte strings natively, and
      // decodes valid UTF-8 to take the text path elsewhere: both are held to the text here.
      const [fromText, fromBytes] = [parse(text), parseBytes(PROFILES.google, bytes)];
      assert.deepEqual(parse(bytes).groups, fromText.groups, file);
      const decoded = parseDecoded(PROFILES.google, bytes);
      for (const field of [
        'groups',
        'sitemaps',
        'extras',
        'lineCount',
        'orphanRuleLines',
      ] as const) {
        assert.deepEqual(fromText[field], fromBytes[field], `${file}: ${field}`);
        assert.deepEqual(fromText[field], decoded[field], `${file}: ${field} (decoded)`);
      }
      compared++;
    }
    assert.ok(compared > 4000, `${compared} files compared`);
  });
});
