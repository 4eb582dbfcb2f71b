/**
 * `node .bench/bench/scan-naive.js`: the share of the corpus's sites that shut each crawler
 * out, as repkit scan reads them (Google's reading: verdict class `all`) and as a naive
 * reading does, the kind of parser published tables were made with: lines split on `\n`,
 * `#` comments dropped, a line read only when it starts `user-agent:`, `allow:` or
 * `disallow:` exactly (no BOM skipped, no space before the colon, no misspelling read),
 * the first group naming the crawler (else the first `*` group) taken alone, and "shut out"
 * meaning it holds `Disallow: /`. Prints the README's table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeCapture } from '../src/scan/index.ts';
import { CORPUS_DIR } from './workloads.ts';

const CRAWLERS = [
  'GPTBot',
  'ClaudeBot',
  'CCBot',
  'Google-Extended',
  'PerplexityBot',
  'Bytespider',
  'Googlebot',
];

function naiveShutOut(text: string, crawler: string): boolean {
  const groups: { agents: string[]; disallowAll: boolean }[] = [];
  let current: { agents: string[]; disallowAll: boolean } | undefined;
  let inAgents = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const match = /^(user-agent|allow|disallow):(.*)$/i.exec(line);
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (key === 'user-agent') {
      if (!inAgents) groups.push((current = { agents: [], disallowAll: false }));
      current!.agents.push(value.toLowerCase());
      inAgents = true;
    } else {
      inAgents = false;
      if (current && key === 'disallow' && value === '/') current.disallowAll = true;
    }
  }
  const name = crawler.toLowerCase();
  const group =
    groups.find((g) => g.agents.includes(name)) ?? groups.find((g) => g.agents.includes('*'));
  return group?.disallowAll ?? false;
}

const files = readdirSync(CORPUS_DIR).sort();
const shutOut = new Map(CRAWLERS.map((c) => [c, { repkit: 0, naive: 0, differ: 0 }]));
for (const name of files) {
  const body = new Uint8Array(readFileSync(join(CORPUS_DIR, name)));
  const text = new TextDecoder().decode(body);
  const { agents } = analyzeCapture({ host: name, status: 200, headers: {}, body }, CRAWLERS);
  for (const row of agents) {
    const counts = shutOut.get(row.agent)!;
    const ours = row.verdict_class === 'all';
    const theirs = naiveShutOut(text, row.agent);
    if (ours) counts.repkit++;
    if (theirs) counts.naive++;
    if (ours !== theirs) counts.differ++;
  }
}
const pct = (n: number) => `${((100 * n) / files.length).toFixed(2)}%`;
console.log(`${files.length} files\n`);
console.log(
  "| crawler | shut out, Google's reading | shut out, naive reading | files read differently |",
);
console.log('|---|---|---|---|');
for (const [crawler, c] of shutOut) {
  console.log(
    `| ${crawler} | ${pct(c.repkit)} (${c.repkit}) | ${pct(c.naive)} (${c.naive}) | ${c.differ} |`,
  );
}
