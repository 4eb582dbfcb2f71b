// The robots-parser equivalent of `repkit batch --robots FILE --agent AGENT`: stdin URLs to
// JSON Lines on stdout, so the two are measured doing the same job.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import robotsParser from 'robots-parser';

const [file, agent] = process.argv.slice(2);
const robots = robotsParser('https://example.com/robots.txt', readFileSync(file, 'utf8'));
const out = [];
for await (const url of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!url) continue;
  out.push(
    JSON.stringify({
      url,
      allowed: robots.isAllowed(url, agent) !== false,
      line: robots.getMatchingLineNumber(url, agent),
    }),
  );
  if (out.length >= 4096) process.stdout.write(out.splice(0).join('\n') + '\n');
}
if (out.length) process.stdout.write(out.join('\n') + '\n');
