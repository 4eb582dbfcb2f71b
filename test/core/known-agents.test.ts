/** The crawler list: repkit's own entries and the ai.robots.txt project's, merged. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isValidProductToken, parse, productToken } from '../../src/core/index.ts';
import { KNOWN_AGENTS } from '../../src/core/agents-entry.ts';
import { ROOT } from '../helpers/shared.ts';

test('at least 150 crawlers, each named once, with an owner and a purpose', () => {
  assert.ok(KNOWN_AGENTS.length >= 150, `${KNOWN_AGENTS.length} crawlers`);
  const names = KNOWN_AGENTS.map((a) => a.name.toLowerCase());
  assert.equal(new Set(names).size, names.length);
  const fromList = KNOWN_AGENTS.filter((a) => a.source === 'ai.robots.txt');
  assert.ok(fromList.length > 100);
  assert.ok(KNOWN_AGENTS.every((a) => a.owner !== '' && a.purpose));
});

test('what the list says is kept: names Google cannot match, who ignores robots.txt or *', () => {
  const byName = new Map(KNOWN_AGENTS.map((a) => [a.name, a]));
  assert.equal(isValidProductToken('AI2Bot'), false);
  assert.equal(productToken(byName.get('AI2Bot')!.name), 'AI');
  assert.equal(byName.get('Perplexity-User')!.respectsRobotsTxt, false, 'enriched from the list');
  assert.equal(byName.get('AdsBot-Google')!.ignoresGlobalGroup, true);
  assert.equal(byName.get('FeedFetcher-Google')!.userTriggered, true);
  assert.match(byName.get('AddSearchBot')!.function!, /search/i);
});

test("the data is the refresh script's output, with the licence beside it", () => {
  const out = mkdtempSync(join(tmpdir(), 'repkit-agents-'));
  execFileSync(
    process.execPath,
    ['scripts/refresh-agents.mjs', join(ROOT, '../shared/data/ai.robots.txt'), out],
    { cwd: ROOT },
  );
  const committed = readFileSync(join(ROOT, 'src/core/agents/ai-robots-txt.ts'), 'utf8');
  assert.equal(readFileSync(join(out, 'ai-robots-txt.ts'), 'utf8'), committed);
  assert.match(committed, /MIT License[\s\S]*Copyright \(c\) 2024 ai\.robots\.txt/);
  assert.equal(
    readFileSync(join(ROOT, 'src/core/agents/LICENSE.ai-robots-txt'), 'utf8'),
    readFileSync(join(ROOT, '../shared/data/ai.robots.txt/LICENSE'), 'utf8'),
  );
});

test('the docs say how many crawlers the list has, and what crawlDelay gives on the example file', () => {
  for (const page of ['docs/guide/agents.md', 'docs/cli/agents.md']) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    assert.match(text, new RegExp(`crawlers, ${KNOWN_AGENTS.length} in all, exported as`), page);
  }
  const core = readFileSync(join(ROOT, 'docs/guide/core.md'), 'utf8');
  const example = parse(readFileSync(join(ROOT, 'examples/robots.txt')));
  const said = /robots\.crawlDelay\('(\w+)'\); \/\/ (\d+) on examples\/robots\.txt/.exec(core);
  assert.ok(said, 'the core guide names crawlDelay on the example file');
  assert.equal(example.crawlDelay(said[1]!), Number(said[2]));
});
