/**
 * The project's documentation as the tests read it: every Markdown page a reader is sent to
 * (README.md, CONTRIBUTING.md, ARCHITECTURE.md, CHANGELOG.md and docs/, the rendered
 * reference under docs/api/ aside), and the fenced blocks of each.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './shared.ts';

/** Pages, as paths relative to the checkout. */
export function docPages(): string[] {
  const pages = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'CHANGELOG.md'].filter((p) =>
    existsSync(join(ROOT, p)),
  );
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative(ROOT, path) !== join('docs', 'api')) walk(path);
      } else if (entry.name.endsWith('.md')) pages.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, 'docs'));
  return pages;
}

export function readPage(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8');
}

/** A fenced block: its language, its lines, and the line its first content line is on (1-based). */
export interface Block {
  page: string;
  lang: string;
  line: number;
  lines: string[];
}

export function blocksOf(page: string): Block[] {
  const lines = readPage(page).split('\n');
  const found: Block[] = [];
  let open: Block | undefined;
  lines.forEach((text, i) => {
    if (open === undefined && text.startsWith('```')) {
      open = { page, lang: text.slice(3).trim(), line: i + 2, lines: [] };
    } else if (open !== undefined && text.startsWith('```')) {
      found.push(open);
      open = undefined;
    } else if (open !== undefined) open.lines.push(text);
  });
  return found;
}
