/** The inputs of every benchmark, built the same way for every peer. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '../src/core/index.ts';

export const CORPUS_DIR = resolve(fileURLToPath(import.meta.url), '../../../shared/corpus/robots');

export function corpusFiles(): { name: string; body: string; bytes: number }[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((name) => {
      const path = join(CORPUS_DIR, name);
      return { name, body: readFileSync(path, 'utf8'), bytes: statSync(path).size };
    });
}

/** A deterministic pseudo-random generator, so every run checks the same URLs. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** `count` URLs for a file: its own rule paths with wildcards filled in, deepened, or random. */
export function urlsFor(body: string, count: number, seed = 1): string[] {
  const random = rng(seed);
  const paths: string[] = [];
  for (const group of parse(body).groups) {
    for (const rule of group.rules) {
      if (rule.value.length > 0) paths.push(rule.value.replace(/\*/g, 'abc').replace(/\$$/, ''));
    }
  }
  const words = ['products', 'search', 'a', 'index.html', 'user', '42', 'page.php', 'x?y=1'];
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const base =
      paths.length > 0 && random() < 0.7 ? paths[Math.floor(random() * paths.length)]! : '';
    const tail = words[Math.floor(random() * words.length)]!;
    const path = `${base.startsWith('/') ? base : '/' + base}${random() < 0.5 ? '' : '/' + tail}`;
    urls.push(`https://example.com${path}`);
  }
  return urls;
}

/** The three worst cases the issue names. */
export function pathologicalCases(): { name: string; body: string; url: string }[] {
  const stars = '/' + Array.from({ length: 13 }, (_, i) => `*a${i}`).join('') + '*z';
  const longPath = '/' + 'a'.repeat(20_000);
  const rules: string[] = ['User-agent: *'];
  const random = rng(7);
  while (rules.join('\n').length < 500 * 1024 - 40) {
    const segment = Math.floor(random() * 1e9).toString(36);
    rules.push(
      `${random() < 0.5 ? 'Allow' : 'Disallow'}: /${segment}/${segment.slice(0, 3)}*.html`,
    );
  }
  const longLine = 'User-agent: *\nDisallow: /' + 'b'.repeat(500 * 1024 - 30) + '\n';
  return [
    {
      name: '13 wildcards vs a 20,000-char path',
      body: `User-agent: *\nDisallow: ${stars}\n`,
      url: `https://example.com${longPath}`,
    },
    {
      name: `500 KiB file, ${rules.length - 1} rules`,
      body: rules.join('\n') + '\n',
      url: 'https://example.com/zzz/zzz/not-there.html',
    },
    { name: 'one 500 KiB line', body: longLine, url: `https://example.com/${'b'.repeat(5000)}` },
  ];
}
