/** The repkit HTTP service over real HTTP on loopback, well-formed and malformed requests. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isPrivateAddress, startService, type RunningService } from '../../src/server/index.ts';
import { deleteTestKeys, REDIS_URL, testPrefix } from '../helpers/redis.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';
import { explain as explainBody } from '../../src/server/work/tasks.ts';

let service: RunningService;
let site: TestServer;
let other: TestServer;
before(async () => {
  site = await httpServer(
    robotsRoute((_req, res) =>
      res
        .writeHead(200)
        .end('User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n'),
    ),
  );
  other = await httpServer(robotsRoute((_req, res) => res.writeHead(404).end()));
  service = await startService({
    port: 0,
    allowPrivateAddresses: true,
    maxBatch: 5,
    bodyLimit: 64 * 1024,
  });
});
after(async () => {
  await service.close();
  await Promise.all([site.close(), other.close()]);
  await deleteTestKeys();
});

async function call(method: string, path: string, body?: unknown, raw?: string) {
  const response = await fetch(`${service.url}${path}`, {
    method,
    ...(body !== undefined || raw !== undefined
      ? { headers: { 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) }
      : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    json: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    text,
  };
}

describe('GET /v1/check', () => {
  test('one URL: allowed and line at the top level, with the fetch state', async () => {
    const { status, json } = await call(
      'GET',
      `/v1/check?url=${encodeURIComponent(`${site.origin}/private/x`)}&agent=Googlebot`,
    );
    assert.equal(status, 200);
    assert.deepEqual(
      [json!.allowed, json!.line, json!.robotsUrl, json!.status, json!.source],
      [false, 2, `${site.origin}/robots.txt`, 200, 'fetched'],
    );
    assert.deepEqual((json!.rule as { value: string }).value, '/private/');
    const again = await call(
      'GET',
      `/v1/check?url=${encodeURIComponent(`${site.origin}/`)}&agent=GPTBot`,
    );
    assert.deepEqual(
      [again.json!.allowed, again.json!.line, again.json!.source],
      [false, 5, 'cache'],
    );
  });

  test('an agent with a version or as a header is matched as its token; the response says so', async () => {
    const url = encodeURIComponent(`${site.origin}/`);
    const { json } = await call('GET', `/v1/check?url=${url}&agent=GPTBot%2F1.2`);
    assert.deepEqual([json!.allowed, json!.line, json!.agent], [false, 5, ['GPTBot']]);
    assert.match(
      (json!.agentNotes as string[])[0]!,
      /"GPTBot\/1.2" is matched as its product token "GPTBot"/,
    );
    // Several names are ordered fallbacks: Foo has no group of its own, so GPTBot's decides,
    // and `agent` says which name was used.
    const two = await call('GET', `/v1/check?url=${url}&agent=Foo&agent=GPTBot`);
    assert.deepEqual([two.json!.allowed, two.json!.agent], [false, ['GPTBot']]);
    // Comma-separated, the same two fallbacks, as the CLI's --agent reads them.
    const comma = await call('GET', `/v1/check?url=${url}&agent=Foo,GPTBot`);
    assert.deepEqual(
      [comma.json!.allowed, comma.json!.agent, comma.json!.agentNotes],
      [false, ['GPTBot'], undefined],
    );
    const batch = await call('POST', '/v1/check', {
      urls: [`${site.origin}/private/x`],
      agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    const [first] = batch.json!.results as { agent: string[]; allowed: boolean }[];
    assert.deepEqual([first!.agent, first!.allowed], [['Googlebot'], false]);
  });

  test('without an agent, the service crawler name (its User-Agent product token)', async () => {
    const { json } = await call(
      'GET',
      `/v1/check?url=${encodeURIComponent(`${site.origin}/open`)}`,
    );
    assert.equal(json!.allowed, true);
  });
});

describe('POST endpoints', () => {
  test('POST /v1/check: many URLs, several origins, results in order', async () => {
    const urls = [`${site.origin}/private/a`, `${other.origin}/private/a`, `${site.origin}/b`];
    const { status, json } = await call('POST', '/v1/check', { urls, agent: ['Bingbot'] });
    assert.equal(status, 200);
    const results = json!.results as { url: string; allowed: boolean; reason: string }[];
    assert.deepEqual(
      results.map((r) => [r.url, r.allowed]),
      [
        [urls[0], false],
        [urls[1], true],
        [urls[2], true],
      ],
    );
    assert.equal(results[1]!.reason, 'no-robots-txt');
  });

  test('POST /v1/explain, /v1/lint and /v1/diff work on bodies given, nothing fetched', async () => {
    const robots = 'User-agent: *\nAllow: /folder\nDisallow: /folder\n';
    const explained = await call('POST', '/v1/explain', {
      robots,
      url: 'https://example.com/folder/x',
      agent: 'bot',
    });
    assert.deepEqual(
      [explained.json!.allowed, explained.json!.tieBreak, explained.json!.line],
      [true, true, 2],
    );
    // Names read as everywhere: Foo has no group, so GPTBot's decides (fallbacks, as the
    // CLI's explain reads them; the core's explain of both names would merge their groups),
    // and `agent` says which, as `repkit explain --json` does.
    const fallback = await call('POST', '/v1/explain', {
      robots: 'User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n',
      url: 'https://example.com/a',
      agent: 'Foo,GPTBot/1.0',
    });
    assert.deepEqual(
      [fallback.json!.allowed, fallback.json!.line, fallback.json!.agent],
      [false, 5, ['GPTBot']],
    );
    const linted = await call('POST', '/v1/lint', { robots: 'Disalow: /x\n' });
    assert.deepEqual(
      (linted.json!.diagnostics as { code: string }[]).map((d) => d.code),
      ['typo', 'rule-outside-group'],
    );
    const diffed = await call('POST', '/v1/diff', {
      old: robots,
      new: 'User-agent: *\nDisallow: /\n',
      urls: ['/folder/x', '/other'],
      agents: ['bot'],
    });
    assert.deepEqual(
      (diffed.json!.changes as { url: string }[]).map((c) => c.url),
      ['/folder/x', '/other'],
    );
  });

  test('POST /v1/explain and /v1/diff say what a check says beside its verdict: a page, a cut line', async () => {
    const page = await call('POST', '/v1/explain', {
      robots: '<!DOCTYPE html>\n<html><body>Not found</body></html>\n',
      url: 'https://example.com/a',
      agent: 'Googlebot',
    });
    assert.deepEqual(
      [page.json!.allowed, page.json!.reason, page.json!.notRobotsTxt],
      [true, 'no-matching-group', 'html-content'],
    );
    // A body over 500 KiB is more than this service's body limit: the task it runs, directly.
    const head = 'User-agent: *\n';
    const robots = `${head}${'#'.repeat(511_983 - head.length - 1)}\nDisallow: /cut-here/only\n`;
    const cut = explainBody({ robots, url: '/cut-heX', agent: 'Googlebot', profile: 'google' });
    assert.deepEqual(
      [cut.allowed, cut.line, cut.rule?.value, cut.lineCut, cut.notRobotsTxt],
      [false, 3, '/cut-he', true, undefined],
    );
    const whole = explainBody({ robots, url: '/other', agent: 'Googlebot', profile: 'google' });
    assert.deepEqual([whole.allowed, whole.lineCut], [true, undefined]);
    // /v1/diff's sides say it too.
    const diffed = await call('POST', '/v1/diff', {
      old: 'User-agent: *\nDisallow: /a\n',
      new: '<!DOCTYPE html>\n<html><body>Not found</body></html>\n',
      urls: ['/a'],
      agents: ['Googlebot'],
    });
    const [change] = diffed.json!.changes as { before: object; after: object }[];
    assert.deepEqual(change?.after, {
      allowed: true,
      line: 0,
      reason: 'no-matching-group',
      notRobotsTxt: 'html-content',
    });
  });

  test('GET /v1/robots: the fetched body, for the web tester', async () => {
    const { json } = await call(
      'GET',
      `/v1/robots?url=${encodeURIComponent(`${site.origin}/anything`)}`,
    );
    assert.deepEqual([json!.status, json!.outcome], [200, 'ok']);
    assert.match(String(json!.body), /User-agent: GPTBot/);
  });
});

describe('malformed requests: 400 with a JSON error naming the field', () => {
  const cases: [string, string, string, unknown, string?][] = [
    ['a missing url', 'GET', '/v1/check?agent=x', undefined],
    ['a URL that does not parse', 'GET', '/v1/check?url=not%20a%20url', undefined],
    [
      'a scheme that cannot be fetched',
      'GET',
      '/v1/check?url=ftp%3A%2F%2Fexample.com%2Fa',
      undefined,
    ],
    ['a body that is not JSON', 'POST', '/v1/lint', undefined, '{"robots": '],
    ['a number where text belongs', 'POST', '/v1/lint', { robots: 5 }],
    ['an unknown field', 'POST', '/v1/lint', { robots: '', extra: true }],
    ['too many URLs in a batch', 'POST', '/v1/check', { urls: ['a', 'b', 'c', 'd', 'e', 'f'] }],
    ['an empty URL list', 'POST', '/v1/check', { urls: [] }],
    ['a bad profile', 'POST', '/v1/explain', { robots: '', url: '/', agent: 'x', profile: 'bing' }],
  ];
  const expectedField: Record<string, string> = {
    'a missing url': 'querystring.url',
    'a URL that does not parse': 'querystring.url',
    'a scheme that cannot be fetched': 'querystring.url',
    'a number where text belongs': 'body.robots',
    'too many URLs in a batch': 'body.urls',
    'an empty URL list': 'body.urls',
    'a bad profile': 'body.profile',
    'an unknown field': 'body.extra',
  };
  for (const [label, method, path, body, raw] of cases) {
    test(label, async () => {
      const response = await call(method, path, body, raw);
      assert.equal(response.status, 400, response.text);
      assert.match(response.type, /application\/json/);
      assert.equal(typeof response.json!.message, 'string');
      if (expectedField[label]) assert.equal(response.json!.field, expectedField[label]);
      // The API's own codes, never the framework's.
      assert.doesNotMatch(response.text, /FST_/);
    });
  }

  test('an unknown field is named; a body that is not JSON says so', async () => {
    const unknown = await call('POST', '/v1/lint', { robots: '', extra: true });
    assert.equal(unknown.json!.message, 'body.extra: unknown field (not one the API takes)');
    const broken = await call('POST', '/v1/lint', undefined, '{"robots": ');
    assert.equal(broken.json!.error, 'invalid-json');
    assert.match(String(broken.json!.message), /^the body is not valid JSON/);
  });

  test('a body over the limit: 413, saying the limit', async () => {
    const response = await call('POST', '/v1/lint', { robots: 'x'.repeat(100_000) });
    assert.equal(response.status, 413);
    assert.deepEqual(response.json, {
      error: 'body-too-large',
      message: 'the body is larger than this service takes: 65,536 bytes (its bodyLimit)',
    });
  });

  test('a batch with a URL that cannot be checked: that URL gets its error, the rest are answered', async () => {
    const response = await call('POST', '/v1/check', {
      urls: [`${site.origin}/private/a`, 'nope', `${site.origin}/public`],
      agent: 'ExampleBot',
    });
    assert.equal(response.status, 200, response.text);
    const results = response.json!.results as Record<string, unknown>[];
    assert.deepEqual(
      results.map((r) => [r.url, r.allowed]),
      [
        [`${site.origin}/private/a`, false],
        ['nope', undefined],
        [`${site.origin}/public`, true],
      ],
    );
    assert.equal(results[1]!.error, 'invalid-url');
    assert.equal(results[1]!.field, 'body.urls.1');
    assert.match(String(results[1]!.message), /not an absolute URL/);
  });
});

describe('one error shape for everything', () => {
  test('a wrong method is a 405 naming the methods; an unknown route a 404; a non-JSON body a 415', async () => {
    const put = await fetch(`${service.url}/v1/check`, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST');
    assert.deepEqual(await put.json(), {
      error: 'method-not-allowed',
      message: 'PUT is not allowed on /v1/check; use GET or POST',
    });
    const missing = await call('GET', '/v2/check');
    assert.deepEqual([missing.status, missing.json!.error], [404, 'not-found']);
    assert.match(String(missing.json!.message), /no such route: GET \/v2\/check/);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await fetch(`${service.url}/v1/lint`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: 'robots=x',
      });
      const json = (await response.json()) as { error: string; message: string };
      assert.deepEqual([response.status, json.error], [415, 'unsupported-media-type'], type);
      assert.match(json.message, /application\/json/);
    }
  });
});

describe('private addresses', () => {
  test('refused unless --allow-private-addresses', async () => {
    const strict = await startService({ port: 0 });
    try {
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/x',
      ]) {
        const response = await fetch(`${strict.url}/v1/check?url=${encodeURIComponent(url)}`);
        const json = (await response.json()) as { error: string; field: string };
        assert.deepEqual(
          [response.status, json.error, json.field],
          [400, 'private-address', 'querystring.url'],
          url,
        );
      }
      // A name of a private address fails as a name that does not resolve (no oracle).
      const response = await fetch(`${strict.url}/v1/check?url=http://localhost/x`);
      const json = (await response.json()) as { allowed: boolean; reason: string; error: string };
      assert.deepEqual(
        [response.status, json.allowed, json.reason],
        [200, false, 'robots-txt-unreachable'],
      );
      assert.match(json.error, /localhost does not resolve to an address this service/);
    } finally {
      await strict.close();
    }
  });

  test('the ranges: every non-public form of IPv4 and IPv6, and the public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '0.1.2.3',
      '198.18.0.1',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '2001::1',
      '2001:db8::1',
      '100::1',
      '[::1]',
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '2606:2800:220:1::1',
      '172.32.0.1',
      '::ffff:8.8.8.8',
    ]) {
      assert.equal(isPrivateAddress(address), false, address);
    }
    assert.equal(isPrivateAddress('example.com'), false, 'a name is not an address');
  });
});

describe('health, metrics, OpenAPI', () => {
  test('/healthz without Redis, with a reachable one, with an unreachable one', async () => {
    assert.deepEqual((await call('GET', '/healthz')).json, {
      status: 'ok',
      redis: 'not-configured',
    });
    const withRedis = await startService({
      port: 0,
      redisUrl: REDIS_URL,
      redisPrefix: testPrefix(),
      onWarning: () => {},
    });
    const deadRedis = await startService({
      port: 0,
      redisUrl: 'redis://127.0.0.1:1',
      onWarning: () => {},
    });
    try {
      for (
        let i = 0;
        i < 50 &&
        ((await (await fetch(`${withRedis.url}/healthz`)).json()) as { redis: string }).redis !==
          'up';
        i++
      ) {
        await new Promise((done) => setTimeout(done, 100));
      }
      assert.deepEqual(await (await fetch(`${withRedis.url}/healthz`)).json(), {
        status: 'ok',
        redis: 'up',
      });
      assert.deepEqual(await (await fetch(`${deadRedis.url}/healthz`)).json(), {
        status: 'degraded',
        redis: 'down',
      });
    } finally {
      await Promise.all([withRedis.close(), deadRedis.close()]);
    }
  });

  test('/metrics: checks, cache hits and misses, fetches by status class, fetch latency', async () => {
    const { text, type } = await call('GET', '/metrics');
    assert.match(type, /text\/plain/);
    assert.match(text, /^repkit_checks_total\{verdict="disallowed"\} \d+$/m);
    assert.match(text, /^repkit_cache_total\{result="hit"\} \d+$/m);
    assert.match(text, /^repkit_cache_total\{result="miss"\} \d+$/m);
    assert.match(text, /^repkit_fetches_total\{class="2xx"\} \d+$/m);
    assert.match(text, /^repkit_fetches_total\{class="4xx"\} \d+$/m);
    assert.match(text, /^repkit_fetch_duration_seconds_count \d+$/m);
  });

  test('/openapi.json describes the API', async () => {
    const { json } = await call('GET', '/openapi.json');
    const paths = Object.keys(json!.paths as object);
    for (const path of ['/v1/check', '/v1/explain', '/v1/lint', '/v1/diff', '/healthz'])
      assert.ok(paths.includes(path), path);
    assert.equal(json!.openapi, '3.1.0');
    // Every operation has an operationId (unique), a tag and its error statuses described.
    type Operation = {
      operationId?: string;
      tags?: string[];
      responses: Record<string, { description?: string }>;
    };
    const operations = Object.entries(
      json!.paths as Record<string, Record<string, Operation>>,
    ).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    assert.ok(operations.length >= 8);
    const ids = operations.map(({ op }) => op.operationId);
    assert.ok(
      ids.every((id) => typeof id === 'string'),
      JSON.stringify(ids),
    );
    assert.equal(new Set(ids).size, ids.length);
    for (const { path, method, op } of operations) {
      assert.ok((op.tags ?? []).length > 0, `${method} ${path} has a tag`);
      // Health and readiness take nothing and are open: no 400, no 401.
      if (path === '/healthz' || path === '/readyz') continue;
      for (const status of ['400', '401', '429', '500']) {
        assert.ok(op.responses[status]?.description, `${method} ${path} describes ${status}`);
      }
      if (method === 'post') {
        for (const status of ['413', '415']) {
          assert.ok(op.responses[status]?.description, `${method} ${path} describes ${status}`);
        }
      }
    }
  });

  test('/docs: the API for people, from the OpenAPI document', async () => {
    const response = await fetch(`${service.url}/docs`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(response.headers.get('content-security-policy'), 'under the security headers');
    const html = await response.text();
    for (const text of [
      'GET /v1/check',
      'checkUrl',
      'POST /v1/check',
      'checkUrls',
      'body-too-large',
    ]) {
      assert.ok(html.includes(text), text);
    }
  });
});
