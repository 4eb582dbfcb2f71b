/** RobotsClient reads crawler names as robots.txt names crawlers, and says so. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RobotsClient } from '../../src/fetch/index.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';

let site: TestServer;
before(async () => {
  site = await httpServer(
    robotsRoute((_req, res) =>
      res
        .writeHead(200)
        .end(
          'User-agent: ExampleBot\nDisallow: /own/\n\nUser-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: *\nDisallow: /x\n',
        ),
    ),
  );
});
after(() => site.close());

test('the User-Agent header names the crawler: its crawler product, not Mozilla', async () => {
  const client = new RobotsClient({
    userAgent: 'Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)',
  });
  try {
    assert.deepEqual(client.agents, ['ExampleBot']);
    const result = await client.check(`${site.origin}/own/page`);
    assert.deepEqual([result.allowed, result.line, result.agent], [false, 2, ['ExampleBot']]);
  } finally {
    await client.close();
  }
});

test('an agent with a version is matched as its token, and the result says so', async () => {
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', agent: 'Googlebot/2.1' });
  try {
    const result = await client.check(`${site.origin}/drafts/a`);
    assert.deepEqual([result.allowed, result.line, result.agent], [false, 5, ['Googlebot']]);
    assert.match(
      result.agentNotes![0]!,
      /"Googlebot\/2.1" is matched as its product token "Googlebot"/,
    );
    const perCall = await client.check(`${site.origin}/own/x`, { agent: 'ExampleBot/9' });
    assert.deepEqual([perCall.allowed, perCall.agent], [false, ['ExampleBot']]);
    assert.equal(
      (await client.check(`${site.origin}/x`, { agent: 'Googlebot' })).agentNotes,
      undefined,
    );
  } finally {
    await client.close();
  }
});

test('one reading of names everywhere: comma-separated fallbacks, no note for the own User-Agent', async () => {
  // The README's own client: its crawler is its User-Agent's product token, the documented
  // default, and no verdict warns about that reading.
  const client = new RobotsClient({
    userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
    allowAddress: () => true,
  });
  try {
    const own = await client.check(`${site.origin}/own/page`);
    assert.deepEqual([own.allowed, own.agent, own.agentNotes], [false, ['ExampleBot'], undefined]);
    // `A,B` is two names in order, as the CLI's --agent reads it: Googlebot-Image has no
    // group here, so Googlebot's decides.
    const fallback = await client.check(`${site.origin}/drafts/a`, {
      agent: 'Googlebot-Image,Googlebot',
    });
    assert.deepEqual([fallback.allowed, fallback.line, fallback.agent], [false, 5, ['Googlebot']]);
  } finally {
    await client.close();
  }
});
