/**
 * The web tester in real Chromium (Debian's package, driven by playwright-core), served by
 * the built `repkit serve`: paste, verdicts, the highlighted line, lint marks, agent and
 * profile switches, fetching by URL. A screenshot is saved to test-artifacts/tester.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { startServeProcess } from '../helpers/service-process.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';
import { ROOT } from '../helpers/shared.ts';
import { edgeSite } from '../helpers/edge-sites.ts';

let service: Awaited<ReturnType<typeof startServeProcess>>;
let browser: Browser;
let page: Page;
let site: TestServer;
let down: TestServer;
let other: TestServer;
/** A site with page rules and a tdmrep.json, for the live panel. */
let usageSite: TestServer;
/** A site whose robots.txt a Cloudflare-style challenge answers. */
let walled: TestServer;
const apiCalls: string[] = [];

before(async () => {
  service = await startServeProcess(['--allow-private-addresses']);
  site = await httpServer(
    robotsRoute((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /members/\n')),
  );
  down = await httpServer(robotsRoute((_req, res) => res.writeHead(500).end()));
  other = await httpServer(
    robotsRoute((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /shop/\n')),
  );
  usageSite = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    if (req.url === '/.well-known/tdmrep.json') {
      return void res.writeHead(200).end('[{"location": "/papers/", "tdm-reservation": 1}]');
    }
    res
      .writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'noai' })
      .end('<html><head><meta name="robots" content="noindex"></head></html>');
  });
  walled = await edgeSite('cloudflare');
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  page.on('request', (request) => {
    if (request.url().includes('/v1/')) apiCalls.push(request.url());
  });
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(service.url);
  await page.waitForSelector('#results tr');
});

after(async () => {
  await browser?.close();
  await service?.stop();
  await site?.close();
  await down?.close();
  await other?.close();
  await usageSite?.close();
  await walled?.close();
});

const ROBOTS = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/public/',
  'Disalow: /typo',
  '',
  'User-agent: GPTBot',
  'Disallow: /',
].join('\n');

async function verdicts(): Promise<[string, string, string][]> {
  return page.$$eval('#results tr', (rows) =>
    rows.map(
      (row) =>
        [
          (row as HTMLElement).dataset.url!,
          row.querySelector('.verdict')!.textContent!,
          (row as HTMLElement).dataset.line!,
        ] as [string, string, string],
    ),
  );
}

describe('the web tester', () => {
  test('paste a robots.txt and URLs: a verdict per URL, computed in the browser', async () => {
    await page.fill('#robots', ROBOTS);
    await page.fill('#agent', 'Googlebot');
    await page.fill(
      '#urls',
      'https://example.com/private/x\nhttps://example.com/private/public/y\nhttps://example.com/open',
    );
    await page.waitForFunction(
      () =>
        document.querySelectorAll('#results tr').length === 3 &&
        document.querySelector('#results tr')!.getAttribute('data-url') ===
          'https://example.com/private/x',
    );
    assert.deepEqual(await verdicts(), [
      ['https://example.com/private/x', 'disallowed', '2'],
      ['https://example.com/private/public/y', 'allowed', '3'],
      ['https://example.com/open', 'allowed', '0'],
    ]);
    assert.deepEqual(apiCalls, [], 'no server round trip for pasted text');
  });

  test('the deciding lines are highlighted; clicking a URL selects its line', async () => {
    assert.equal(await page.locator('#view .line.decides-deny').getAttribute('data-line'), '2');
    assert.equal(await page.locator('#view .line.decides-allow').getAttribute('data-line'), '3');
    await page.click('#results tr[data-url="https://example.com/private/public/y"]');
    await page.waitForSelector('#view .line.selected[data-line="3"]');
  });

  test('lint diagnostics appear on their lines', async () => {
    const marker = page.locator('#view .line[data-line="4"] .lint-marker');
    assert.equal(await marker.textContent(), 'typo');
    assert.match((await marker.getAttribute('class'))!, /lint-warning/);
    assert.match(await page.locator('#diagnostics li[data-code="typo"]').innerText(), /line 4/);
  });

  test('a crawler given with its version or as a User-Agent header is read as its token, and said so', async () => {
    await page.fill('#agent', 'GPTBot/1.2');
    await page.waitForFunction(() =>
      document
        .querySelector('#summary')
        ?.textContent?.startsWith('GPTBot: 0 allowed, 3 disallowed'),
    );
    assert.match(
      (await page.locator('#summary').textContent())!,
      /"GPTBot\/1.2" is matched as its product token "GPTBot"/,
    );
    await page.fill(
      '#agent',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    );
    await page.waitForFunction(() =>
      document.querySelector('#summary')?.textContent?.startsWith('GPTBot: 0 allowed'),
    );
    // Comma-separated names are ordered fallbacks, as in the CLI and the service: Foo has
    // no group, so GPTBot's decides, and no note misreads the pair as one name.
    await page.fill('#agent', 'Googlebot');
    await page.waitForFunction(() =>
      document.querySelector('#summary')?.textContent?.startsWith('Googlebot:'),
    );
    await page.fill('#agent', 'Foo,GPTBot');
    await page.waitForFunction(() =>
      document.querySelector('#summary')?.textContent?.startsWith('GPTBot: 0 allowed'),
    );
    assert.doesNotMatch((await page.locator('#summary').textContent())!, /matched as/);
    await page.fill('#agent', 'Googlebot');
  });

  test('switching the crawler or the profile updates at once', async () => {
    await page.fill('#agent', 'GPTBot');
    await page.waitForFunction(
      () =>
        document.querySelector('#results tr .verdict')?.textContent === 'disallowed' &&
        document.querySelectorAll('#results .verdict.disallowed').length === 3,
    );
    assert.deepEqual(
      (await verdicts()).map(([, verdict, line]) => [verdict, line]),
      [
        ['disallowed', '7'],
        ['disallowed', '7'],
        ['disallowed', '7'],
      ],
    );
    await page.fill('#agent', 'Googlebot');
    // Googlebot's answer first: GPTBot's row 2 was disallowed too.
    await page.waitForFunction(() =>
      document.querySelector('#summary')?.textContent?.startsWith('Googlebot: 2 allowed'),
    );
    // The 1996 standard: the first matching rule wins, so /private/ (line 2) beats the allow.
    await page.selectOption('#profile', 'legacy');
    await page.waitForFunction(
      () =>
        document.querySelector('#results tr:nth-child(2) .verdict')?.textContent === 'disallowed',
    );
    await page.selectOption('#profile', 'google');
    await page.waitForFunction(
      () => document.querySelector('#results tr:nth-child(2) .verdict')?.textContent === 'allowed',
    );
    assert.deepEqual(apiCalls, []);
  });

  test("fetching a site's robots.txt through the service", async () => {
    await page.fill('#fetch-url', `${site.origin}/some/page`);
    await page.click('#fetch');
    await page.waitForFunction(() =>
      (document.querySelector('#robots') as HTMLTextAreaElement).value.includes('/members/'),
    );
    assert.match(await page.locator('#fetch-status').innerText(), /HTTP 200/);
    assert.deepEqual(apiCalls.length, 1);
    await page.fill('#urls', `${site.origin}/members/area\n${site.origin}/`);
    // This site's rows (the first row before was disallowed too).
    await page.waitForFunction(
      (url) =>
        document.querySelector('#results tr')?.getAttribute('data-url') === url &&
        document.querySelector('#results tr .verdict')?.textContent === 'disallowed',
      `${site.origin}/members/area`,
    );
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts/tester.png'), fullPage: true });
  });

  test("another site's fetch replaces the last site's URLs; an unreachable one disallows every URL", async () => {
    await page.fill('#fetch-url', `${other.origin}/`);
    await page.click('#fetch');
    await page.waitForFunction(() =>
      (document.querySelector('#robots') as HTMLTextAreaElement).value.includes('/shop/'),
    );
    assert.equal(await page.inputValue('#urls'), `${other.origin}/`, 'the first site is gone');
    await page.fill('#fetch-url', `${down.origin}/`);
    await page.click('#fetch');
    await page.waitForFunction(() =>
      /unreachable/.test(document.querySelector('#fetch-status')!.textContent!),
    );
    await page.fill('#urls', `${down.origin}/\n${down.origin}/any/page`);
    await page.waitForFunction(
      () => document.querySelectorAll('#results .verdict.disallowed').length === 2,
    );
    assert.match(
      await page.locator('#summary').innerText(),
      /unreachable, so Google crawls nothing/,
    );
    assert.match(
      await page.locator('#results tr .why').first().innerText(),
      /robots\.txt unreachable/,
    );
    // Editing the text makes it the user's own file again.
    await page.fill('#robots', 'User-agent: *\nDisallow: /any/\n');
    await page.waitForFunction(
      () => document.querySelectorAll('#results .verdict.disallowed').length === 1,
    );
  });

  test('a bot wall answering for robots.txt is named, with its evidence, and disallows for now', async () => {
    await page.fill('#fetch-url', `${walled.origin}/`);
    await page.click('#fetch');
    await page.waitForFunction(() =>
      /bot wall/.test(document.querySelector('#fetch-status')!.textContent!),
    );
    assert.match(
      await page.locator('#fetch-status').innerText(),
      /robots\.txt: a bot wall answered \(cloudflare\): status 403; cf-mitigated: challenge\. Counted as unreachable: a crawler fetches nothing of the site for now\./,
    );
    await page.fill('#urls', `${walled.origin}/\n${walled.origin}/any/page`);
    await page.waitForFunction(
      (origin) =>
        [...document.querySelectorAll('#results tr')].filter(
          (row) => row.textContent!.includes(origin) && row.querySelector('.verdict.disallowed'),
        ).length === 2,
      walled.origin,
    );
    // One answer: Problems does not call the wall's stand-in text an empty file that allows all.
    const problems = await page.locator('#diagnostics').innerText();
    assert.match(problems, /Nothing to lint: the robots\.txt could not be read/);
    assert.doesNotMatch(problems, /empty|everything may be fetched/i);
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts/tester-wall.png'), fullPage: true });
    await page.fill('#robots', 'User-agent: *\nDisallow: /any/\n');
  });

  test('AdsBot-Google under only a * group: allowed, as every surface says it', async () => {
    await page.fill('#robots', 'User-agent: *\nDisallow: /\n');
    await page.fill('#agent', 'AdsBot-Google');
    await page.fill('#urls', 'https://example.com/a');
    // The answer to these three boxes, not the last test's rows (its first row was allowed
    // too): the page shows an answer only once the worker has given it.
    await page.waitForFunction(() =>
      document.querySelector('#summary')?.textContent?.startsWith('AdsBot-Google: 1 allowed'),
    );
    assert.equal(await page.locator('#results tr').count(), 1);
    assert.equal(await page.locator('#results tr .verdict').innerText(), 'allowed');
    assert.match(await page.locator('#summary').innerText(), /special-case crawler/);
    await page.fill('#agent', 'Googlebot');
    await page.waitForFunction(
      () => document.querySelector('#results tr .verdict')?.textContent === 'disallowed',
    );
  });

  test('Enter in the Fetch box fetches, a bare domain is read as https, the sample URLs give way', async () => {
    await page.goto(service.url);
    const before = apiCalls.length;
    // A bare host and port: read as https (this loopback site speaks http, so it fails, and
    // the message says how the box was read).
    await page.fill('#fetch-url', new URL(site.origin).host);
    await page.press('#fetch-url', 'Enter');
    await page.waitForFunction(() =>
      /read as https:\/\//.test(document.querySelector('#fetch-status')!.textContent!),
    );
    assert.equal(apiCalls.length, before + 1, 'Enter fetched');
    await page.fill('#fetch-url', `${site.origin}/`);
    await page.press('#fetch-url', 'Enter');
    await page.waitForFunction(() =>
      (document.querySelector('#robots') as HTMLTextAreaElement).value.includes('/members/'),
    );
    // The page's sample URLs (another site's) gave way to the fetched site's home.
    assert.equal(await page.inputValue('#urls'), `${site.origin}/`);
  });

  test('open a file, drop a file, and a link that reproduces the page', async () => {
    await page.setInputFiles('#open-file', {
      name: 'opened.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('User-agent: *\nDisallow: /opened/\n'),
    });
    await page.waitForFunction(() =>
      (document.querySelector('#robots') as HTMLTextAreaElement).value.includes('/opened/'),
    );
    assert.match(await page.locator('#fetch-status').innerText(), /Opened opened\.txt/);
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['User-agent: *\nDisallow: /dropped/\n'], 'dropped.txt'));
      return transfer;
    });
    await page.dispatchEvent('#editor', 'drop', { dataTransfer: dropped });
    await page.waitForFunction(() =>
      (document.querySelector('#robots') as HTMLTextAreaElement).value.includes('/dropped/'),
    );
    await page.fill('#agent', 'GPTBot');
    await page.fill('#urls', '/dropped/a\n/b');
    await page.click('#link');
    const href = (await page.locator('#state-link').getAttribute('href'))!;
    const other = await browser.newPage();
    try {
      await other.goto(href);
      await other.waitForFunction(() => document.querySelectorAll('#results tr').length === 2);
      assert.equal(await other.inputValue('#robots'), 'User-agent: *\nDisallow: /dropped/\n');
      assert.equal(await other.inputValue('#agent'), 'GPTBot');
      assert.deepEqual(await other.locator('#results .verdict').allInnerTexts(), [
        'disallowed',
        'allowed',
      ]);
    } finally {
      await other.close();
    }
    await page.fill('#agent', 'Googlebot');
  });

  test('a verdict decided by the line the 500 KiB limit cuts says so in its row', async () => {
    // Comment lines up to a few bytes short of 512,000, then a rule the limit cuts inside.
    const head = 'User-agent: *\n';
    const filler = `# ${'x'.repeat(97)}\n`.repeat(Math.floor((512_000 - head.length - 8) / 100));
    const pad = '#'.repeat(512_000 - head.length - filler.length - 16) + '\n';
    const text = `${head}${filler}${pad}Disallow: /cut-here-and-more\n`;
    await page.evaluate((value) => {
      const box = document.querySelector('#robots') as HTMLTextAreaElement;
      box.value = value;
      box.dispatchEvent(new Event('input'));
    }, text);
    await page.fill('#urls', '/cut-anything');
    await page.waitForFunction(() =>
      /line cut by the 500 KiB limit/.test(
        document.querySelector('#results .why')?.textContent ?? '',
      ),
    );
    assert.equal(await page.locator('#results .verdict').innerText(), 'disallowed');
    await page.fill('#robots', ROBOTS);
  });

  test('lines that are no URL are flagged; rows are selected from the keyboard; a page is no robots.txt', async () => {
    await page.fill('#robots', 'User-agent: *\nDisallow: /private/\n');
    await page.fill('#urls', 'not a url\n/private/a\nftp://example.com/x');
    await page.waitForFunction(() => document.querySelectorAll('#results tr').length === 3);
    assert.deepEqual(await page.locator('#results .verdict').allInnerTexts(), [
      'not a URL',
      'disallowed',
      'not a URL',
    ]);
    assert.match(
      await page.locator('#summary').innerText(),
      /0 allowed, 1 disallowed.*2 line\(s\) not a URL/,
    );
    // Tab reaches a row; Enter selects it.
    await page.locator('#results tr').nth(1).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#results tr.selected[data-url="/private/a"]');
    await page.fill('#robots', '<!DOCTYPE html>\n<html><body>Not found</body></html>\n');
    await page.waitForFunction(() =>
      document
        .querySelector('#summary')
        ?.textContent?.startsWith('Not a robots.txt (an HTML page)'),
    );
  });

  test('clicking a problem goes to its line; typing URLs keeps the file view as it is', async () => {
    await page.fill('#robots', ROBOTS);
    await page.fill('#urls', 'https://example.com/private/x');
    await page.waitForSelector('#diagnostics li[data-code="typo"]');
    await page.click('#diagnostics li[data-code="typo"]');
    await page.waitForSelector('#view .line.selected[data-line="4"]');
    const selection = await page.evaluate(() => {
      const box = document.querySelector('#robots') as HTMLTextAreaElement;
      return box.value.slice(box.selectionStart, box.selectionEnd);
    });
    assert.equal(selection, 'Disalow: /typo');
    // The lines are built once per text: a URL typed updates the marks, not the lines.
    await page.evaluate(() => {
      (window as unknown as { firstLine: Element }).firstLine =
        document.querySelector('#view .line')!;
    });
    await page.fill('#urls', 'https://example.com/private/public/y');
    await page.waitForFunction(
      () => document.querySelector('#view .line.decides-allow')?.getAttribute('data-line') === '3',
    );
    assert.equal(
      await page.evaluate(
        () => (window as unknown as { firstLine: Element }).firstLine.isConnected,
      ),
      true,
    );
  });

  test("a file stating Content-Usage: each URL's AI-use preferences beside its verdict", async () => {
    await page.fill(
      '#robots',
      'User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n',
    );
    await page.fill('#agent', 'OtherBot');
    await page.fill(
      '#urls',
      'https://example.com/test\nhttps://example.com/never/test\nhttps://example.com/ai-ok/test',
    );
    await page.waitForFunction(() => document.querySelectorAll('#results td.usage').length === 3);
    assert.deepEqual(await page.locator('#results td.usage').allInnerTexts(), [
      'train-ai: no (line 4) · search: unstated',
      'none (not crawlable)',
      'train-ai: yes (line 5) · search: unstated',
    ]);
    assert.equal(await page.locator('th.usage').isVisible(), true);
    // Content-Signal in the same file joins the answer, as the fetch client's usage answer
    // combines them: any "no" wins (the column read Content-Usage only, and said "yes").
    await page.fill(
      '#robots',
      'User-Agent: *\nAllow: /\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: ai-train=no, search=yes\n',
    );
    await page.fill('#urls', 'https://example.com/ai-ok/test');
    // The rows of the URLs before may still show the new file's answer: wait for the one URL.
    await page.waitForFunction(() => {
      const cells = document.querySelectorAll('#results td.usage');
      return cells.length === 1 && cells[0]!.textContent!.includes('Content-Signal');
    });
    assert.deepEqual(await page.locator('#results td.usage').allInnerTexts(), [
      'train-ai: no (line 3; line 4: Content-Signal: ai-train=no) · search: yes (line 4: Content-Signal: search=yes)',
    ]);
    await page.screenshot({ path: join(ROOT, 'test-artifacts/tester-usage.png') });
    await page.fill('#robots', ROBOTS);
    await page.waitForFunction(() => document.querySelectorAll('#results td.usage').length === 0);
    assert.equal(
      await page.locator('th.usage').isVisible(),
      false,
      'hidden when nothing is stated',
    );
  });

  test("the selected URL's page, live: fetch, index, AI use, search and TDM from the service", async () => {
    await page.fill('#agent', 'ExampleBot');
    await page.fill('#urls', `${usageSite.origin}/papers/a.html`);
    // This URL's row, not the last test's one row (the check asks about the selected row).
    await page.waitForFunction((url) => {
      const rows = document.querySelectorAll('#results tr');
      return rows.length === 1 && rows[0]!.textContent!.includes(url);
    }, `${usageSite.origin}/papers/a.html`);
    await page.click('#usage-check');
    await page.waitForFunction(() => document.querySelectorAll('#usage dt').length === 5);
    assert.deepEqual(await page.locator('#usage dt').allInnerTexts(), [
      'Fetch',
      'Index',
      'Train AI',
      'Search',
      'TDM',
    ]);
    const answers = await page.locator('#usage dd').allInnerTexts();
    assert.match(answers[0]!, /^yes/);
    assert.match(answers[1]!, /^no\s+noindex/);
    assert.match(answers[2]!, /^disallowed[\s\S]*X-Robots-Tag header: noai/);
    assert.match(answers[4]!, /^reserved[\s\S]*tdmrep\.json rule 1 \(\/papers\/\)/);
    assert.ok(apiCalls.some((call) => call.includes('/v1/usage?')));
    await page.screenshot({ path: join(ROOT, 'test-artifacts/tester-page.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    const panel = await page.locator('#usage').boundingBox();
    assert.ok(panel!.width <= 390, `the panel fits: ${panel!.width} px`);
    await page.screenshot({
      path: join(ROOT, 'test-artifacts/tester-page-390.png'),
      fullPage: true,
    });
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  test('a file near 500 KiB (15,000 lines): one editor, only the lines in sight drawn, the work in a worker', async () => {
    const big = Array.from({ length: 15_000 }, (_, i) =>
      i % 500 === 0 ? `User-agent: bot${i}` : `Disallow: /section-${i}/page-${'x'.repeat(i % 7)}`,
    ).join('\n');
    await page.fill('#agent', 'bot14500');
    await page.evaluate((text) => {
      const box = document.querySelector('#robots') as HTMLTextAreaElement;
      box.value = text;
      box.dispatchEvent(new Event('input'));
    }, big);
    await page.fill('#urls', 'https://example.com/section-14999/page-xxxxx');
    await page.waitForFunction(
      () => document.querySelector('#results tr')?.getAttribute('data-line') === '15000',
    );
    const drawn = await page.locator('#view .line').count();
    assert.ok(drawn > 10 && drawn < 200, `${drawn} lines drawn for 15,000`);
    // The deciding line is scrolled into sight and tinted; the text box is the only copy.
    await page.click('#results tr');
    await page.waitForSelector('#view .line.decides-deny[data-line="15000"]');
    assert.equal(await page.locator('#robots').count(), 1);
    // The page's own script has neither the parser nor the linter: both run in the worker.
    const script = await (await fetch(`${service.url}/tester.js`)).text();
    const workerScript = await (await fetch(`${service.url}/tester-worker.js`)).text();
    assert.ok(workerScript.length > script.length * 1.5, 'the core is in the worker bundle');
    assert.ok(!/before any user-agent line: Google ignores it/.test(script));
    assert.ok(/before any user-agent line: Google ignores it/.test(workerScript));
    // How long a keystroke holds the page's thread (reported, not asserted: see the README).
    // From the key going down to the next frame painted, for a real key press in each box.
    const keystroke = async (selector: string): Promise<number> => {
      await page.focus(selector);
      await page.evaluate((target) => {
        const box = document.querySelector(target)!;
        const w = window as unknown as { keyMs?: Promise<number> };
        w.keyMs = new Promise((done) => {
          let start = 0;
          box.addEventListener('keydown', () => (start = performance.now()), { once: true });
          box.addEventListener(
            'input',
            () => requestAnimationFrame(() => setTimeout(() => done(performance.now() - start))),
            { once: true },
          );
        });
      }, selector);
      await page.keyboard.press('x');
      return page.evaluate(() => (window as unknown as { keyMs: Promise<number> }).keyMs);
    };
    const fileKeystroke = await keystroke('#robots');
    const urlKeystroke = await keystroke('#urls');
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    writeFileSync(
      join(ROOT, 'test-artifacts/tester-keystroke.json'),
      JSON.stringify({ fileKeystrokeMs: fileKeystroke, urlKeystrokeMs: urlKeystroke }),
    );
    await page.screenshot({ path: join(ROOT, 'test-artifacts/tester-big.png') });
    await page.fill('#agent', 'Googlebot');
    await page.fill('#robots', ROBOTS);
  });

  test('on a 390 px screen the verdicts come first, and URLs take the full width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.fill(
      '#urls',
      'https://example.com/private/some/very/long/path/that/goes/on/and/on/index.html',
    );
    await page.waitForFunction(
      () =>
        document.querySelectorAll('#results tr').length === 1 &&
        document.querySelector('#results tr')!.getAttribute('data-url')!.includes('/and/on/'),
    );
    const [results, file] = await Promise.all([
      page.locator('#results').boundingBox(),
      page.locator('#robots').boundingBox(),
    ]);
    assert.ok(results!.y < file!.y, 'the verdicts are above the file');
    const url = await page.locator('#results td.url').boundingBox();
    assert.ok(url!.width > 300, `the URL cell is ${url!.width} px wide`);
    // A problem on a long rule line is a dot in the gutter, not a label over the rule.
    await page.fill(
      '#robots',
      'User-agent: *\nDisallow: private/a/rather/long/path/that/fills/the/line\n',
    );
    const marker = page.locator('#view .line[data-line="2"] .lint-marker');
    await marker.waitFor();
    const [dot, gutter] = await Promise.all([
      marker.boundingBox(),
      page.locator('#view .gutter').boundingBox(),
    ]);
    assert.ok(dot!.x + dot!.width <= gutter!.x + gutter!.width, 'the marker stays in the gutter');
    // Nothing widens the page: the problem's quoted path breaks within its column.
    await page.waitForSelector('#diagnostics li[data-code="path-not-absolute"]');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= 390),
      'no sideways scrolling at 390 px',
    );
    await page.screenshot({ path: join(ROOT, 'test-artifacts/tester-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1360, height: 900 });
  });
});
