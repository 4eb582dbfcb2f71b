// Before `npm test`: the browser tests drive Debian's Chromium and the Redis tests need a
// Redis on REDIS_URL (default 127.0.0.1:6379). What is missing is installed (as root, with
// apt-get, as on this project's machines) or started (an installed Redis that is not
// running); anything still missing is one line saying exactly what to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const host = redisUrl.hostname || '127.0.0.1';
const port = Number(redisUrl.port || 6379);
const local = host === '127.0.0.1' || host === 'localhost';

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

const canApt =
  process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
let aptUpdated = false;
function aptInstall(pkg) {
  if (!canApt) return false;
  console.error(`npm test: installing ${pkg} (apt-get install ${pkg})`);
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    aptUpdated = true;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'ignore', env }).status === 0;
}

const missing = [];
if (!existsSync(CHROMIUM) && !(process.env.CHROMIUM_PATH === undefined && aptInstall('chromium'))) {
  missing.push('Chromium: apt-get install chromium (or set CHROMIUM_PATH)');
}
if (!(await redisAnswers())) {
  let installed = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  if (local && !installed) installed = aptInstall('redis-server');
  if (local && installed) {
    const args = ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', String(port)];
    spawnSync('redis-server', [...args, '--save', '', '--appendonly', 'no']);
    for (let i = 0; i < 50 && !(await redisAnswers()); i++) {
      await new Promise((d) => setTimeout(d, 100));
    }
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
