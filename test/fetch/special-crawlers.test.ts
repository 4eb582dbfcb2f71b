/**
 * Google's special-case crawlers (AdsBot-Google, Mediapartners-Google...) take no rule from
 * the `*` group: one answer for them on every surface that answers for a crawler (the
 * client's check and explain, the CLI's check, explain and agents, the service's explain),
 * from one case list. The core's matcher stays Google's open-source one, which knows no
 * crawler.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import { runCli } from '../helpers/cli.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';

const STAR_ONLY = 'User-agent: *\nDisallow: /\n';
const OWN_GROUP = 'User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /ads\n';

const CASES = [
  {
    robots: STAR_ONLY,
    agent: 'AdsBot-Google',
    path: '/x',
    allowed: true,
    reason: 'ignores-global-group',
  },
  {
    robots: STAR_ONLY,
    agent: 'adsbot-google',
    path: '/x',
    allowed: true,
    reason: 'ignores-global-group',
  },
  {
    robots: STAR_ONLY,
    agent: 'Mediapartners-Google',
    path: '/x',
    allowed: true,
    reason: 'ignores-global-group',
  },
  {
    robots: STAR_ONLY,
    agent: 'Googlebot',
    path: '/x',
    allowed: false,
    reason: 'disallowed-by-rule',
  },
  {
    robots: OWN_GROUP,
    agent: 'AdsBot-Google',
    path: '/ads/1',
    allowed: false,
    reason: 'disallowed-by-rule',
  },
  {
    robots: OWN_GROUP,
    agent: 'AdsBot-Google',
    path: '/x',
    allowed: true,
    reason: 'no-matching-rule',
  },
] as const;

const sites: TestServer[] = [];
let service: RunningService;
let client: RobotsClient;
before(async () => {
  for (const c of CASES) {
    sites.push(await httpServer(robotsRoute((_req, res) => res.writeHead(200).end(c.robots))));
  }
  service = await startService({ port: 0, allowPrivateAddresses: true });
  client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
});
after(async () => {
  await client?.close();
  await service?.close();
  for (const site of sites) await site.close();
});

test("the core matcher reads the * group for every name, as Google's open-source matcher does", () => {
  assert.equal(parse(STAR_ONLY).verdict('https://example.com/x', 'AdsBot-Google').allowed, false);
});

CASES.forEach((c, i) => {
  const label = `${c.agent} ${c.path} (${c.robots === STAR_ONLY ? 'only *' : 'its own group'})`;
  test(`${label}: ${c.allowed ? 'allowed' : 'disallowed'}, ${c.reason}, on every surface`, async () => {
    const url = `${sites[i]!.origin}${c.path}`;
    const expected = [c.allowed, c.reason];
    const checked = await client.check(url, { agent: c.agent });
    assert.deepEqual([checked.allowed, checked.reason], expected, 'RobotsClient.check');
    const explained = await client.check(url, { agent: c.agent, explain: true });
    assert.deepEqual(
      [explained.allowed, explained.reason],
      expected,
      'RobotsClient.check, explained',
    );

    const file = join(tmpdir(), `repkit-special-${process.pid}-${i}.txt`);
    writeFileSync(file, c.robots);
    for (const command of ['check', 'explain']) {
      const run = await runCli([command, '--json', '--robots', file, '--agent', c.agent, url]);
      const answer = JSON.parse(run.stdout.trim().split('\n')[0]!) as {
        allowed: boolean;
        reason: string;
      };
      assert.deepEqual([answer.allowed, answer.reason], expected, `repkit ${command}`);
      assert.equal(run.code, c.allowed ? 0 : 1, `repkit ${command} exit code`);
    }
    const response = await fetch(`${service.url}/v1/explain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ robots: c.robots, url, agent: c.agent }),
    });
    const served = (await response.json()) as { allowed: boolean; reason: string };
    assert.deepEqual([served.allowed, served.reason], expected, 'POST /v1/explain');
  });
});

test('repkit agents says the same of AdsBot-Google under only a * group', async () => {
  const file = join(tmpdir(), `repkit-special-${process.pid}-agents.txt`);
  writeFileSync(file, STAR_ONLY);
  const run = await runCli(['agents', '--json', file, '--path', '/x']);
  const crawlers = run.stdout
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          agent: string[];
          allowed: boolean;
          line: number;
          reason: string;
          ignoresGlobalGroup?: true;
        },
    );
  const ads = crawlers.find((c) => c.agent[0] === 'AdsBot-Google')!;
  assert.deepEqual(
    [ads.allowed, ads.line, ads.reason, ads.ignoresGlobalGroup],
    [true, 0, 'ignores-global-group', true],
  );
  const googlebot = crawlers.find((c) => c.agent[0] === 'Googlebot')!;
  assert.equal(googlebot.allowed, false);
});
