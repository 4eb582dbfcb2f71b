/**
 * The web tester as deployed, not only on loopback: `repkit serve` on a non-loopback address
 * (one end of a link in a network namespace this test makes, as a container's address is),
 * where Chromium grants none of loopback's exemptions, and behind `--token`.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { testNetwork, type TestNetwork } from '../helpers/netns.ts';
import { startServeProcess } from '../helpers/service-process.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';
import { ROOT } from '../helpers/shared.ts';

const TOKEN = 'a-token-for-the-tester-0123456789';
const ARTIFACTS = join(ROOT, 'test-artifacts');

let network: TestNetwork;
let open: Awaited<ReturnType<typeof startServeProcess>>;
let guarded: Awaited<ReturnType<typeof startServeProcess>>;
let site: TestServer;
let browser: Browser;

before(async () => {
  network = testNetwork();
  const on = ['--host', network.hostAddress, '--allow-private-addresses'];
  open = await startServeProcess(on);
  guarded = await startServeProcess([...on, '--token', TOKEN]);
  site = await httpServer(
    robotsRoute((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /members/\n')),
  );
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await open?.stop();
  await guarded?.stop();
  await site?.close();
  network?.close();
});

test('over plain HTTP on a non-loopback address the page loads its scripts and answers', async () => {
  assert.match(open.url, new RegExp(`^http://${network.hostAddress.replaceAll('.', '\\.')}:`));
  for (const width of [1360, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    try {
      const failed: string[] = [];
      page.on('requestfailed', (request) => failed.push(request.url()));
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') blocked.push(message.text());
      });
      await page.goto(open.url);
      await page.waitForSelector('#results tr', { timeout: 60_000 });
      assert.deepEqual(failed, [], 'requests that failed');
      assert.deepEqual(blocked, [], 'console errors');
      await page.screenshot({ path: join(ARTIFACTS, `tester-off-loopback-${width}.png`) });
    } finally {
      await page.close();
    }
  }
});

test('behind --token the page asks for the token, keeps it for the tab, and its calls pass', async () => {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  try {
    const sent: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/')) sent.push(request.headers()['authorization']);
    });
    await page.goto(guarded.url);
    await page.waitForSelector('#results tr', { timeout: 60_000 });
    assert.equal(await page.isVisible('#token-form'), false, 'no token asked before a call');

    await page.fill('#fetch-url', site.origin);
    await page.click('#fetch');
    await page.waitForSelector('#token-form', { state: 'visible', timeout: 60_000 });
    assert.match((await page.textContent('#token-status')) ?? '', /asks for a token/);
    assert.deepEqual(sent, [undefined]);

    await page.fill('#token', TOKEN);
    await page.click('#token-form button');
    await page.click('#fetch');
    await page.waitForFunction(
      () => (document.getElementById('robots') as HTMLTextAreaElement).value.includes('/members/'),
      undefined,
      { timeout: 60_000 },
    );
    assert.deepEqual(sent, [undefined, `Bearer ${TOKEN}`]);
    // Kept for the tab's session, never in the address.
    assert.ok(!page.url().includes(TOKEN));
    assert.equal(await page.evaluate(() => sessionStorage.getItem('repkit-token')), TOKEN);
    assert.equal(await page.inputValue('#token'), '', 'the field does not keep it on show');

    // A wrong token is said to be refused.
    await page.evaluate(() => sessionStorage.setItem('repkit-token', 'wrong-token-0123456789'));
    await page.click('#fetch');
    await page.waitForFunction(
      () => /refused this token/.test(document.getElementById('token-status')!.textContent ?? ''),
      undefined,
      { timeout: 60_000 },
    );

    // What the API is stays open to a browser; what it answers does not.
    for (const path of ['/docs', '/openapi.json']) {
      assert.equal((await page.goto(`${guarded.url}${path}`))?.status(), 200, path);
    }
    assert.equal((await page.goto(`${guarded.url}/v1/robots?url=${site.origin}`))?.status(), 401);
  } finally {
    await page.close();
  }
});
