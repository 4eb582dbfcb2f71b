/** The inputs of every benchmark, built the same way for every peer. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from '../src/core/index.ts';
import { parseTdmrep } from '../src/core/tdmrep-entry.ts';
import { ROOT } from './root.ts';

export const CORPUS_DIR = resolve(ROOT, '../shared/corpus/robots');

export function corpusFiles(): { name: string; body: string; raw: Uint8Array; bytes: number }[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((name) => {
      const path = join(CORPUS_DIR, name);
      const raw = new Uint8Array(readFileSync(path));
      return { name, body: new TextDecoder().decode(raw), raw, bytes: statSync(path).size };
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

/**
 * `count` different URLs from `make(k)`, k = 0, 1, …: a row that checks them in turn is never
 * answered from a memo of the check before (a crawler does not ask the same URL twice in a row).
 */
export function variants(make: (k: number) => string, count: number): string[] {
  return Array.from({ length: count }, (_, k) => make(k));
}

/** How many different URLs a worst-case row takes turns with. */
const VARIANTS = 16;

/** The three worst cases the issue names. */
export function pathologicalCases(): { name: string; body: string; urls: string[] }[] {
  const stars = '/' + Array.from({ length: 13 }, (_, i) => `*a${i}`).join('') + '*z';
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
      urls: variants((k) => `https://example.com/${'a'.repeat(20_000 - k)}`, VARIANTS),
    },
    {
      name: `500 KiB file, ${rules.length - 1} rules`,
      body: rules.join('\n') + '\n',
      urls: variants((k) => `https://example.com/zzz/zzz/not-there-${k}.html`, VARIANTS),
    },
    {
      name: 'one 500 KiB line',
      body: longLine,
      urls: variants((k) => `https://example.com/${'b'.repeat(5000 - k)}`, VARIANTS),
    },
  ];
}

/**
 * The workloads of the core issue, measured against robots-parser: a wildcard rule whose
 * every segment occurs all along the path, 25,000 rules × 10,000 URLs, and one 500 KiB line.
 */
export function issueWorkloads(): { name: string; body: string; urls: string[] }[] {
  const random = rng(11);
  const rules: string[] = ['User-agent: *'];
  for (let i = 0; i < 25_000; i++) {
    const a = Math.floor(random() * 1e9).toString(36);
    const b = Math.floor(random() * 1e6).toString(36);
    rules.push(
      `${random() < 0.5 ? 'Allow' : 'Disallow'}: /${a}/${b}${random() < 0.2 ? '*.php' : ''}`,
    );
  }
  const many = rules.join('\n') + '\n';
  let line = 'Disallow: /';
  while (line.length < 500 * 1024 - 100) line += 'a'.repeat(63) + '*';
  return [
    {
      name: '/*a*a*a*a*a*a*a*a*a*a*a*a*b vs 20,000 a',
      body: 'User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\n',
      urls: variants((k) => `https://example.com/${'a'.repeat(20_000 - k)}`, VARIANTS),
    },
    { name: '25,000 rules × 10,000 URLs', body: many, urls: urlsFor(many, 10_000, 5) },
    {
      name: 'one 500 KiB line with a * every 64 characters',
      body: `User-agent: *\n${line}\n`,
      urls: variants((k) => `https://example.com/${'a'.repeat(8_000 - k)}`, 20),
    },
  ];
}

/**
 * Worst cases for one check: 500 KiB files against paths up to 8 KiB where nothing fails
 * early (every segment occurs many times, or nearly does). Measured for repkit alone, against
 * the issue's bound of 50 ms (robots-parser's position-set matcher takes seconds on most).
 */
export function worstCases(): { name: string; body: string; urls: string[] }[] {
  const fill = (rule: (i: number) => string) => {
    let body = 'User-agent: *\n';
    for (let i = 0; body.length < 500 * 1024 - 8200; i++) body += rule(i) + '\n';
    return body;
  };
  const path = (s: string) => `https://example.com${s}`;
  // Every digit occurs in the path, never two in a row: a rule ending in a number of two or
  // more digits passes the character-set test and fails only after searching the whole path.
  const digits = (fill: string) => [...'0123456789'].join(fill);
  let n = 10;
  const number = () => n++;
  return [
    {
      name: 'near-miss segments: /*a…ac rules (4,096 characters) vs /c + 8,150 a',
      body: fill(() => `Disallow: /*${'a'.repeat(4095)}c`),
      urls: variants((k) => path(`/c${'a'.repeat(8150 - k)}`), VARIANTS),
    },
    {
      name: '13 matching stars, 500 KiB of distinct rules vs 8,130 a and every digit',
      body: fill(() => `Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*${number()}`),
      urls: variants((k) => path(`/${'a'.repeat(8130 - k)}${digits('a')}`), VARIANTS),
    },
    {
      // Identical patterns cost one match: repeated lines answer as the first did.
      name: 'one 13-star rule repeated over 500 KiB vs 8,130 a and every digit',
      body: fill(() => `Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*99`),
      urls: variants((k) => path(`/${'a'.repeat(8130 - k)}${digits('a')}`), VARIANTS),
    },
    {
      name: 'shared-prefix wildcards: /a*N* × 500 KiB vs /a + 8,130 b and every digit',
      body: fill(() => `Allow: /a*${number()}*`),
      urls: variants((k) => path(`/a${'b'.repeat(8130 - k)}${digits('b')}`), VARIANTS),
    },
    {
      name: 'anchored near-miss: /*aN$ × 500 KiB vs 8,130 a and every digit',
      body: fill(() => `Disallow: /*a${number()}$`),
      urls: variants((k) => path(`/${'a'.repeat(8130 - k)}${digits('a')}`), VARIANTS),
    },
    {
      // Every rule has an alias (`/dN/$`), made when a path ending in `/` is first checked.
      name: 'index.html aliases: Allow: /dN/index.html × 500 KiB vs /d + 8,150 ones + /',
      body: fill(() => `Allow: /d${number()}/index.html`),
      urls: variants((k) => path(`/d${'1'.repeat(8150 - k)}/`), VARIANTS),
    },
    {
      // Each segment starts with a character that fills the path: searched from its rarer
      // digits (1.7 s a check when searched from the `a`).
      name: 'unanchored near-miss: /*aN × 500 KiB vs 8,130 a and every digit',
      body: fill(() => `Disallow: /*a${number()}`),
      urls: variants((k) => path(`/${'a'.repeat(8130 - k)}${digits('a')}`), VARIANTS),
    },
    {
      name: 'long literal near-miss: /a…ab rules vs /a…aa',
      body: fill((i) => `Disallow: /${'a'.repeat(2000 + (i % 64))}b`),
      urls: variants((k) => path(`/${'a'.repeat(8150 - k)}`), VARIANTS),
    },
  ];
}

/**
 * Worst cases for a usage answer: Content-Usage lines of a 500 KiB robots.txt, and the
 * 1,000 locations a tdmrep.json may hold, against 8 KiB paths where nothing fails early.
 * Each `answer` parses afresh when asked to (`fresh`), so the first answer includes it.
 */
export function usageWorstCases(): {
  name: string;
  prepare: () => (url: string) => unknown;
  urls: string[];
}[] {
  const fill = (line: (i: number) => string) => {
    let body = 'User-agent: *\n';
    for (let i = 0; body.length < 500 * 1024 - 8200; i++) body += line(i) + '\n';
    return body;
  };
  const path = (s: string) => `https://example.com${s}`;
  const digits = [...'0123456789'].join('a');
  const tdmrep = (location: (i: number) => string) =>
    JSON.stringify(
      Array.from({ length: 1_000 }, (_, i) => ({ location: location(i), 'tdm-reservation': 1 })),
    );
  return [
    {
      // The issue's case: one pattern whose segment occurs nowhere in the path.
      name: 'Content-Usage: /*a0 n × 500 KiB vs 8 KiB of a',
      prepare: () => {
        const robots = parse(fill(() => 'Content-Usage: /*a0 n'));
        return (url) => robots.contentUsage(url, 'Googlebot');
      },
      urls: variants((k) => path(`/${'a'.repeat(8150 - k)}`), VARIANTS),
    },
    {
      name: 'Content-Usage: /*aN train-ai=n × 500 KiB vs 8,130 a and every digit',
      prepare: () => {
        const robots = parse(fill((i) => `Content-Usage: /*a${i + 10} train-ai=n`));
        return (url) => robots.contentUsage(url, 'Googlebot');
      },
      urls: variants((k) => path(`/${'a'.repeat(8130 - k)}${digits}`), VARIANTS),
    },
    {
      name: 'tdmrep.json: 1,000 locations /*aN vs 8,130 a and every digit',
      prepare: () => {
        const file = parseTdmrep(tdmrep((i) => `/*a${i + 10}`));
        return (url) => file.match(url);
      },
      urls: variants((k) => path(`/${'a'.repeat(8130 - k)}${digits}`), VARIANTS),
    },
  ];
}
