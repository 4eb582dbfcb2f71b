// Before `npm test`: the browser tests drive Debian's Chromium and the Redis tests need a
// Redis on REDIS_URL (default 127.0.0.1:6379). A Redis that is installed but not running is
// started; anything else missing is one line saying exactly what to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const host = redisUrl.hostname || '127.0.0.1';
const port = Number(redisUrl.port || 6379);

function redisAnswers() {
  return new Promise((done) => {
    const socket = connect(port, host);
    const finish = (ok) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(2_000, () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => finish(String(data).startsWith('+PONG')));
    socket.on('error', () => finish(false));
  });
}

const missing = [];
if (!existsSync(CHROMIUM))
  missing.push('Chromium: apt-get install chromium (or set CHROMIUM_PATH)');
if (!(await redisAnswers())) {
  const local = host === '127.0.0.1' || host === 'localhost';
  const installed = spawnSync('redis-server', ['--version']).status === 0;
  if (local && installed) {
    spawnSync('redis-server', [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    for (let i = 0; i < 50 && !(await redisAnswers()); i++)
      await new Promise((d) => setTimeout(d, 100));
  }
  if (!(await redisAnswers())) {
    missing.push(
      local
        ? `Redis on ${host}:${port}: apt-get install redis-server (npm test then starts it)`
        : `Redis at ${redisUrl.host}: start it, or unset REDIS_URL`,
    );
  }
}
if (missing.length > 0) {
  console.error(`npm test needs ${missing.join('; and ')}. Or run: bash .ci/run`);
  process.exit(1);
}
