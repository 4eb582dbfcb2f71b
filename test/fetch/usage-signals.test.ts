/**
 * usage() and the AI-use lines of a robots.txt as sites write them: a Content-Signal before
 * any User-agent speaks for the whole file, and the answer says where it was read.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { RobotsClient } from '../../src/fetch/index.ts';
import { describeSource } from '../../src/core/internal.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

async function site(robots: string): Promise<TestServer> {
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end(robots);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
  });
  closing.push(server);
  return server;
}

function client(): RobotsClient {
  const made = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(made);
  return made;
}

test('usage(): a Content-Signal before any User-agent applies to every group without its own, said so in its source', async () => {
  const server = await site(
    '# For the whole site\nContent-Signal: ai-train=no, search=yes\n\nUser-agent: *\nAllow: /\n\n' +
      'User-agent: GPTBot\nContent-Signal: ai-train=yes\nAllow: /\n',
  );
  const answer = await client().usage(`${server.origin}/article`, { agent: 'ExampleBot' });
  assert.equal(answer['train-ai'].preference, 'disallowed');
  assert.equal(answer.search.preference, 'allowed');
  const source = answer['train-ai'].statements[0]!.source;
  assert.deepEqual(source, {
    kind: 'robots-txt',
    line: 2,
    text: 'Content-Signal: ai-train=no',
    fileLevel: true,
  });
  assert.match(
    describeSource(source),
    /line 2: Content-Signal: ai-train=no \(before any User-agent/,
  );
  // GPTBot's group states its own: the file's line does not speak for it.
  const gpt = await client().usage(`${server.origin}/article`, { agent: 'GPTBot' });
  assert.equal(gpt['train-ai'].preference, 'allowed');
  assert.deepEqual(gpt['train-ai'].statements[0]!.source, {
    kind: 'robots-txt',
    line: 8,
    text: 'Content-Signal: ai-train=yes',
  });
  assert.equal(gpt.search.preference, 'unknown');
});

const LLMS_TXT = '# Example Docs\n\n> What the site is.\n';

test('usage(): License lines are named; llms.txt is fetched only when asked, where robots.txt allows it, and reported', async () => {
  let llmsAsked = 0;
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res
        .writeHead(200)
        .end(
          'License: https://example.com/license.xml\nLicense: /terms/rsl.xml\nLLMs: /docs/llms.txt\n\n' +
            'User-agent: *\nAllow: /\n\nUser-agent: ShyBot\nDisallow: /docs/\n',
        );
    }
    if (req.url === '/docs/llms.txt') {
      llmsAsked++;
      return void res.writeHead(200).end(LLMS_TXT);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
  });
  closing.push(server);
  const plain = await client().usage(`${server.origin}/a`);
  assert.deepEqual(plain.robotsTxt.licenses, [
    { url: 'https://example.com/license.xml', line: 1 },
    { url: `${server.origin}/terms/rsl.xml`, line: 2 },
  ]);
  assert.equal(plain.llmsTxt, undefined);
  assert.equal(llmsAsked, 0);
  const asked = await client().usage(`${server.origin}/a`, { llms: true });
  assert.deepEqual(asked.llmsTxt, {
    kind: 'fetched',
    url: `${server.origin}/docs/llms.txt`,
    line: 3,
    status: 200,
    bytes: Buffer.byteLength(LLMS_TXT),
    title: 'Example Docs',
  });
  // It says nothing of permissions: the page's answers are what they were.
  assert.deepEqual(
    [asked.fetch.may, asked.index.may, asked['train-ai'].preference],
    [plain.fetch.may, plain.index.may, plain['train-ai'].preference],
  );
  // A crawler robots.txt keeps out of /docs/ never asks for it.
  const shy = await client().usage(`${server.origin}/a`, { agent: 'ShyBot', llms: true });
  assert.equal(shy.llmsTxt?.kind, 'not-fetched');
  assert.match(
    shy.llmsTxt?.kind === 'not-fetched' ? shy.llmsTxt.why : '',
    /disallows it \(line 9\)/,
  );
  assert.equal(llmsAsked, 1);
});
