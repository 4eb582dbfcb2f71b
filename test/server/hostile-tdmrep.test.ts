/**
 * A tdmrep.json nested thousands deep (10 KB) is a file with a problem, not a crash: the
 * service answers 200 and `repkit usage` exits 0.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { UsageAnswer } from '../../src/fetch/index.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import { runCli } from '../helpers/cli.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const deep = '['.repeat(5_000) + ']'.repeat(5_000);
let site: TestServer;
let service: RunningService;
before(async () => {
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    if (req.url === '/.well-known/tdmrep.json') {
      return void res.writeHead(200).end(`[{"location": "/", "tdm-reservation": ${deep}}]`);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
  });
  service = await startService({ port: 0, allowAddress: () => true });
});
after(async () => {
  await service.close();
  await site.close();
});

test('/v1/usage and repkit usage answer for a site whose tdmrep.json is nested 5,000 deep', async () => {
  const response = await fetch(
    `${service.url}/v1/usage?url=${encodeURIComponent(`${site.origin}/a`)}&agent=bot`,
  );
  assert.equal(response.status, 200);
  const answer = (await response.json()) as UsageAnswer;
  assert.equal(answer.tdm.reservation, 'unset');
  const cli = await runCli(['usage', `${site.origin}/a`, '--agent', 'bot', '--json']);
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal((JSON.parse(cli.stdout) as UsageAnswer).tdm.reservation, 'unset');
});
