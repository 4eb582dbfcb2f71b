/**
 * The documentation holds together: every relative link of README.md and docs/ resolves (the
 * file, and the heading an anchor names), README.md stays short, every docs page starts by
 * saying what it is for, and a reader gets from README.md to any command's page and to the
 * index of every public name in one click, and from that index to the name's rendered page
 * in a second (`npm run docs:check` holds those links to the rendered reference).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { blocksOf, docPages, readPage } from '../helpers/docs.ts';
import { ROOT } from '../helpers/shared.ts';

/** README.md's bound, in bytes. */
const README_MAX_BYTES = 20 * 1024;

/** A page's text outside its fenced blocks (links in code are code). */
function prose(page: string): string {
  let fenced = false;
  return readPage(page)
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && !line.startsWith('```');
    })
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
}

/** `[text](target)` links of a page's prose. */
function linksOf(page: string): string[] {
  return [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub gives a page's headings. */
function anchorsOf(page: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(page).split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

test('every relative link of the docs resolves, anchors included', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of docPages()) {
    for (const link of linksOf(page)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
      // docs/api.md's links go to the rendered reference: `npm run docs:check` checks them.
      if (page === 'docs/api.md' && link.startsWith('api/')) continue;
      checked++;
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : normalize(join(dirname(page), path));
      if (!existsSync(join(ROOT, target))) {
        broken.push(`${page}: ${link} (no ${target})`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!target.endsWith('.md') || statSync(join(ROOT, target)).isDirectory()) {
        broken.push(`${page}: ${link} (an anchor into a file that is not a page)`);
      } else if (!anchorsOf(target).has(anchor)) {
        broken.push(`${page}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
  }
  assert.ok(checked > 100, `${checked} links checked`);
  assert.deepEqual(broken, []);
});

test('the link check finds a broken file and a broken anchor', () => {
  // The check above is only as good as its parser: it must see these two as links.
  const sample = '[a](docs/nowhere.md) and [b](docs/cli/check.md#no-such-heading) `[c](x.md)`';
  assert.deepEqual(
    [...sample.replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]),
    ['docs/nowhere.md', 'docs/cli/check.md#no-such-heading'],
  );
  assert.equal(existsSync(join(ROOT, 'docs/nowhere.md')), false);
  assert.equal(anchorsOf('docs/cli/check.md').has('no-such-heading'), false);
  assert.ok(anchorsOf('docs/cli/check.md').has('flags-and-exit-statuses'));
  assert.ok(anchorsOf('docs/guide/fetch.md').has('bot-walls-pay-per-crawl-and-signed-requests'));
});

test(`README.md is at most ${README_MAX_BYTES} bytes, and starts with the two commands`, () => {
  const size = statSync(join(ROOT, 'README.md')).size;
  assert.ok(size <= README_MAX_BYTES, `README.md is ${size} bytes`);
  const first = blocksOf('README.md')[0]!;
  assert.equal(first.lang, 'sh');
  assert.equal(first.lines.length, 2);
  assert.match(first.lines[0]!, /npx repkit check --robots examples\/robots\.txt/);
  assert.equal(first.lines[1], 'npm ci && npm test');
});

test('every docs page starts by saying what it is for', () => {
  const pages = docPages().filter((p) => p.startsWith('docs/') || p === 'CONTRIBUTING.md');
  assert.ok(pages.length >= 30, `${pages.length} pages`);
  for (const page of pages) {
    const [title, , first] = readPage(page).split('\n');
    assert.match(title!, /^# /, `${page} starts with its title`);
    assert.match(first!, /^What it is for: /, `${page}: the paragraph after its title`);
  }
});

test('README.md links every guide, every command page and the API index; the index names every public name', () => {
  const links = new Set(linksOf('README.md'));
  const guides = readdirSync(join(ROOT, 'docs/guide')).map((f) => `docs/guide/${f}`);
  const commands = readdirSync(join(ROOT, 'src/cli/commands')).map(
    (f) => `docs/cli/${f.replace(/\.ts$/, '.md')}`,
  );
  for (const page of [...guides, ...commands, 'docs/cli/README.md', 'docs/api.md']) {
    assert.ok(existsSync(join(ROOT, page)), `${page} exists`);
    assert.ok(links.has(page), `README.md links ${page}`);
  }
  const entries = [
    'core',
    'fetch',
    'cache',
    'meta',
    'guards',
    'sitemaps',
    'crawlee',
    'agents',
    'tdmrep',
    'tokenizer',
  ];
  assert.deepEqual(guides.sort(), entries.map((e) => `docs/guide/${e}.md`).sort());

  const surface = JSON.parse(
    readFileSync(join(ROOT, 'test/package/api-surface.json'), 'utf8'),
  ) as Record<string, string[]>;
  const index = readPage('docs/api.md');
  for (const [entry, names] of Object.entries(surface)) {
    const module = entry === '.' ? 'repkit' : `repkit/${entry.slice(2)}`;
    const section = index.split(/^## /m).find((s) => s.startsWith(`${module}\n`));
    assert.ok(section, `docs/api.md has a section for ${module}`);
    for (const name of names.map((n) => n.replace(/^(type|value) /, ''))) {
      assert.ok(section.includes(`[\`${name}\`](api/`), `docs/api.md lists ${module}'s ${name}`);
    }
  }
});

test("repkit lint's page lists every rule, and the address SARIF gives for them is that page under package.json's repository", async () => {
  const { LINT_RULES } = await import('../../src/core/index.ts');
  const { RULES_URI } = await import('../../src/cli/lint-formats.ts');
  const page = readPage('docs/cli/lint.md');
  const rules = page.slice(page.indexOf('\n## Rules\n'));
  for (const code of Object.keys(LINT_RULES)) {
    assert.match(rules, new RegExp(`^\\| \`${code}\` +\\|`, 'm'), `docs/cli/lint.md lists ${code}`);
  }
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    repository: { url: string };
    homepage: string;
    bugs: { url: string };
  };
  const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  assert.equal(manifest.homepage, `${repository}#readme`);
  assert.equal(manifest.bugs.url, `${repository}/issues`);
  const [path, anchor] = RULES_URI.slice(`${repository}/blob/main/`.length).split('#');
  assert.ok(RULES_URI.startsWith(`${repository}/blob/main/`), RULES_URI);
  assert.equal(path, 'docs/cli/lint.md');
  assert.ok(anchorsOf(path!).has(anchor!), `docs/cli/lint.md has #${anchor}`);
});
