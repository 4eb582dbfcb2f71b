/**
 * The service at the 2026 edge (issue 31): its answers carry `edge` (GET and POST
 * /v1/check, cached or fetched; /v1/usage for the robots.txt and the page), a wall counts as
 * unreachable unless it runs with `challenge: 'literal'`, and its fetches can be signed.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_KEY, verifyRequest } from '../helpers/web-bot-auth.ts';
import { startService } from '../../src/server/index.ts';
import { answerAs, edgeSite, type EdgeKind } from '../helpers/edge-sites.ts';
import type { TestServer } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

async function site(
  kind: EdgeKind | string,
  pages?: Parameters<typeof edgeSite>[1],
): Promise<TestServer> {
  const server = await edgeSite(kind, pages);
  closing.push(server);
  return server;
}

async function service(options: Parameters<typeof startService>[0] = {}) {
  const running = await startService({ port: 0, allowAddress: () => true, ...options });
  closing.push(running);
  return running;
}

interface Answer {
  allowed: boolean;
  reason: string;
  edge?: { kind: string; evidence: string[]; vendor?: string };
}

test('GET and POST /v1/check carry the edge and the reading, fetched and cached', async () => {
  const walled = await site('cloudflare');
  const running = await service();
  const url = `${walled.origin}/page`;
  for (let i = 0; i < 2; i++) {
    const one = (await (
      await fetch(`${running.url}/v1/check?agent=ExampleBot&url=${encodeURIComponent(url)}`)
    ).json()) as Answer;
    assert.equal(one.allowed, false);
    assert.equal(one.reason, 'robots-txt-challenge');
    assert.deepEqual(one.edge, {
      kind: 'challenge',
      evidence: ['status 403', 'cf-mitigated: challenge'],
      vendor: 'cloudflare',
    });
  }
  const many = (await (
    await fetch(`${running.url}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'ExampleBot', urls: [url, `${walled.origin}/other`] }),
    })
  ).json()) as { results: Answer[] };
  for (const result of many.results) {
    assert.equal(result.reason, 'robots-txt-challenge');
    assert.equal(result.edge?.kind, 'challenge');
  }
});

test("a service run with challenge: 'literal' reads the wall as Google does", async () => {
  const walled = await site('anubis');
  const running = await service({ challenge: 'literal' });
  const url = `${walled.origin}/page`;
  const one = (await (
    await fetch(`${running.url}/v1/check?agent=ExampleBot&url=${encodeURIComponent(url)}`)
  ).json()) as Answer;
  assert.equal(one.allowed, true);
  assert.equal(one.reason, 'robots-txt-challenge-literal');
  assert.equal(one.edge?.vendor, 'anubis');
});

test('/v1/usage: a page answering 402 comes with its price', async () => {
  const paid = await site('User-agent: *\nAllow: /\n', (path, res) => {
    if (path !== '/article') return false;
    answerAs('x402', res);
    return true;
  });
  const running = await service();
  const answer = (await (
    await fetch(
      `${running.url}/v1/usage?agent=ExampleBot&url=${encodeURIComponent(`${paid.origin}/article`)}`,
    )
  ).json()) as {
    page?: { status: number; edge?: { kind: string; price?: Record<string, string> } };
    robotsTxt: { reason: string; edge?: unknown };
    index: { may: boolean; why: string };
  };
  assert.equal(answer.page?.status, 402);
  assert.equal(answer.page?.edge?.kind, 'payment-required');
  assert.equal(answer.page?.edge?.price?.scheme, 'x402');
  assert.equal(answer.page?.edge?.price?.amount, '10000');
  assert.equal(answer.index.may, false);
  assert.equal(answer.robotsTxt.reason, 'allowed-by-rule');
  assert.equal(answer.robotsTxt.edge, undefined);
});

test("the service's fetches are signed when it runs with a key", async () => {
  const plain = await site('User-agent: *\nAllow: /\n');
  const running = await service({ webBotAuth: { key: TEST_KEY } });
  const url = `${plain.origin}/page`;
  await fetch(`${running.url}/v1/check?agent=ExampleBot&url=${encodeURIComponent(url)}`);
  const [request] = plain.requests;
  assert.ok(request);
  await verifyRequest(request);
});
