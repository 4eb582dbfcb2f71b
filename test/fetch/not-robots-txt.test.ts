/**
 * A body that is no robots.txt at all (an HTML page, UTF-16 text, binary data) has no rule,
 * so every URL is allowed: every surface that answers from such a file says so, as lint's
 * verdict on it (issue 28): the core, the client's results, the service and the CLI.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { startService } from '../../src/server/index.ts';
import { runCli, scratchFiles } from '../helpers/cli.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';

const PAGE =
  '<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Sorry</body></html>\n';
const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

async function pageSite(): Promise<TestServer> {
  const site = await httpServer(
    robotsRoute((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE)),
  );
  closing.push(site);
  return site;
}

test('core: RobotsTxt.notRobotsTxt names what the body is, from text and from bytes', () => {
  assert.equal(parse(PAGE).notRobotsTxt, 'html-content');
  assert.equal(parse(new TextEncoder().encode(PAGE)).notRobotsTxt, 'html-content');
  // A body over 120 KiB of bytes is read in pieces: its first piece is looked at.
  const large = new TextEncoder().encode(PAGE + `<p>${'x'.repeat(200_000)}</p>\n`);
  assert.equal(parse(large).notRobotsTxt, 'html-content');
  const utf16 = new Uint8Array([
    0xff,
    0xfe,
    ...[...'User-agent: *\n'].flatMap((c) => [c.charCodeAt(0), 0]),
  ]);
  assert.equal(parse(utf16).notRobotsTxt, 'utf-16');
  assert.equal(parse(new Uint8Array(64).fill(1)).notRobotsTxt, 'binary-content');
  // Robots.txt files, however wrong their lines, and an empty one.
  for (const body of ['User-agent: *\nDisallow: /\n', 'Disalow /x\n', '']) {
    assert.equal(parse(body).notRobotsTxt, undefined, JSON.stringify(body));
  }
});

test('client: a check against a site answering a page for robots.txt says so', async () => {
  const site = await pageSite();
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', allowAddress: () => true });
  closing.push(client);
  const result = await client.check(`${site.origin}/a`);
  assert.equal(result.allowed, true);
  assert.equal(result.reason, 'no-matching-group');
  assert.equal(result.notRobotsTxt, 'html-content');
  // A real robots.txt's verdicts carry no such field.
  const robots = await httpServer(
    robotsRoute((_req, res) => res.writeHead(200).end('User-agent: x\nDisallow: /\n')),
  );
  closing.push(robots);
  assert.equal((await client.check(`${robots.origin}/a`)).notRobotsTxt, undefined);
});

test('service: GET and POST /v1/check carry notRobotsTxt', async () => {
  const site = await pageSite();
  const service = await startService({ port: 0, allowAddress: () => true });
  closing.push(service);
  const url = `${site.origin}/a`;
  const one = (await (
    await fetch(`${service.url}/v1/check?agent=Googlebot&url=${encodeURIComponent(url)}`)
  ).json()) as { notRobotsTxt?: string };
  assert.equal(one.notRobotsTxt, 'html-content');
  const many = (await (
    await fetch(`${service.url}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'Googlebot', urls: [url] }),
    })
  ).json()) as { results: { notRobotsTxt?: string }[] };
  assert.equal(many.results[0]!.notRobotsTxt, 'html-content');
});

test('CLI: check and explain lead with what the file is; --json records carry it', async () => {
  const page = scratchFiles('repkit-page-')('page.txt', PAGE);
  const check = await runCli(['check', '--robots', page, '--agent', 'Googlebot', '/a']);
  assert.equal(check.code, 0);
  const [first, second] = check.stdout.split('\n');
  assert.match(
    first!,
    /page\.txt is not a robots\.txt Google can use \(an HTML page: html-content\)/,
  );
  assert.match(second!, /^allowed +\/a +no-matching-group: not a robots\.txt \(html-content\)/);
  const json = await runCli(['check', '--robots', page, '--agent', 'Googlebot', '--json', '/a']);
  assert.equal((JSON.parse(json.stdout) as { notRobotsTxt?: string }).notRobotsTxt, 'html-content');
  const explain = await runCli(['explain', '--robots', page, '--agent', 'Googlebot', '/a']);
  assert.match(explain.stdout.split('\n')[0]!, /is not a robots\.txt Google can use/);
  const agents = await runCli(['agents', page]);
  assert.match(agents.stdout.split('\n')[1]!, /is not a robots\.txt Google can use/);
});
