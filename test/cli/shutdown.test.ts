/**
 * `repkit serve` and `repkit mcp --http` stop in bounded time on SIGTERM: a silent connection
 * (a browser's preconnect) or an open MCP stream does not hold them up, while a request in
 * flight is still answered. The processes are the built binary's, killed only by PID.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { after, test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { childEnv } from '../helpers/child-env.ts';
import { httpServer } from '../helpers/servers.ts';
import { ROOT } from '../helpers/shared.ts';

const children = new Set<ChildProcess>();
const sockets = new Set<Socket>();
after(() => {
  for (const socket of sockets) socket.destroy();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** The command started; resolves with its URL once it listens. */
async function start(args: string[]): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv() });
  children.add(child);
  let said = '';
  const url = await new Promise<string>((done, fail) => {
    const read = (chunk: Buffer) => {
      said += chunk;
      const found = /serving(?: MCP)? on (http:\/\/\S+)/.exec(said);
      if (found) done(found[1]!);
    };
    child.stderr!.on('data', read);
    child.stdout!.on('data', read);
    child.once('exit', (code) => fail(new Error(`exited ${code}: ${said}`)));
  });
  return { child, url: new URL(url) };
}

/** A TCP connection that sends nothing. */
async function silent(url: URL): Promise<Socket> {
  const socket = connect(Number(url.port), url.hostname);
  sockets.add(socket);
  socket.on('error', () => {});
  await new Promise((done) => socket.once('connect', done));
  return socket;
}

/** SIGTERM, then the exit code; generous: the drain's grace is 10 s, a loaded machine slower. */
async function stopped(child: ChildProcess): Promise<number | string> {
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = new Promise<string>((done) => setTimeout(() => done('still up'), 60_000).unref());
  return (await Promise.race([exited, timer])) ?? 'killed';
}

test('serve stops with a silent connection open, and answers the request in flight first', async () => {
  let answer: (() => void) | undefined;
  const asked = new Promise<void>((done) => {
    answer = done;
  });
  let release: (() => void) | undefined;
  const site = await httpServer((req, res) => {
    if (req.url !== '/robots.txt') return void res.writeHead(404).end();
    answer!();
    release = () => res.writeHead(200).end('User-agent: *\nDisallow: /no\n');
  });
  try {
    const { child, url } = await start(['serve', '--port', '0', '--allow-private-addresses']);
    await silent(url);
    const inFlight = fetch(
      `${url.origin}/v1/check?url=${encodeURIComponent(`${site.origin}/no`)}&agent=x`,
    );
    await asked;
    const exit = stopped(child);
    // The robots.txt answers once stopping has begun; the check is still answered.
    setTimeout(() => release!(), 300);
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { allowed: boolean }).allowed, false);
    assert.equal(await exit, 0);
  } finally {
    await site.close();
  }
});

test('mcp --http stops with a silent connection and an open SSE stream', async () => {
  const { child, url } = await start(['mcp', '--http', '0']);
  await silent(url);
  const controller = new AbortController();
  const stream = await fetch(url, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  try {
    assert.equal(await stopped(child), 0);
  } finally {
    controller.abort();
  }
  // The stream was open (the server ended it when stopping began).
  assert.equal(stream.status, 200);
});
