/**
 * The fetching routes' and the MCP tools' handlers called directly, with the service's own
 * route context and a real client: what each answers, past what common.case.test.ts asks.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RobotsClient } from '../../src/fetch/index.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import { robotsAnswer } from '../../src/server/routes/checks.ts';
import type { RouteContext } from '../../src/server/routes/context.ts';
import { BadRequestError } from '../../src/server/errors.ts';
import { aiCrawlers, clientBounds, lintRobotsTxt, type McpTools } from '../../src/mcp/tools.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';

const ROBOTS = 'User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n';

let site: TestServer;
let moved: TestServer;
let service: RunningService;
let context: RouteContext | undefined;
let tools: McpTools;
before(async () => {
  site = await httpServer(robotsRoute((_req, res) => res.writeHead(200).end(ROBOTS)));
  // A robots.txt that redirects to a page that is no robots.txt.
  moved = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(301, { location: '/home' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
  });
  service = await startService({
    port: 0,
    allowPrivateAddresses: true,
    routes: (given) => (context = given),
  });
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', allowAddress: () => true });
  tools = { client, bounds: clientBounds(client) };
});
after(async () => {
  await tools?.client.close();
  await service?.close();
  await site?.close();
  await moved?.close();
});

test('robotsAnswer: the file as fetched, its status; a body elsewhere is not handed out', async () => {
  const answer = await robotsAnswer(context!, `${site.origin}/any`, 'test');
  assert.equal(answer.status, 200);
  assert.equal(answer.outcome, 'ok');
  assert.equal('body' in answer ? answer.body : undefined, ROBOTS);
  const elsewhere = await robotsAnswer(context!, `${moved.origin}/any`, 'test');
  assert.ok('bodyOmitted' in elsewhere, JSON.stringify(elsewhere));
  assert.ok(!('body' in elsewhere));
});

test('robotsAnswer: a URL the service cannot check is a 400 on its field', async () => {
  await assert.rejects(
    robotsAnswer(context!, 'ftp://example.com/x', 'test'),
    (error: unknown) => error instanceof BadRequestError && error.field === 'querystring.url',
  );
});

test("lintRobotsTxt: a text given, and a site's file fetched", async () => {
  const text = await lintRobotsTxt(tools, { text: 'Disallow: /x\n' });
  assert.equal(text['robots'], '(text)');
  assert.ok((text['errors'] as number) + (text['warnings'] as number) > 0, JSON.stringify(text));
  const fetched = await lintRobotsTxt(tools, { url: `${site.origin}/` });
  assert.deepEqual([fetched['robots'], fetched['status']], [`${site.origin}/robots.txt`, 200]);
  await assert.rejects(lintRobotsTxt(tools, {}), /give url \(a site\) or text/);
});

test('aiCrawlers: each known crawler, by its own group or the * group', async () => {
  const answer = await aiCrawlers(tools, { url: `${site.origin}/` });
  const gpt = answer.crawlers.find((c) => c.agent[0] === 'GPTBot');
  const claude = answer.crawlers.find((c) => c.agent[0] === 'ClaudeBot');
  assert.equal(gpt?.allowed, false);
  assert.equal(claude?.allowed, true);
  assert.equal(answer.robotsUrl, `${site.origin}/robots.txt`);
});
