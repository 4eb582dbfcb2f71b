/**
 * What the Crawlee adapter logs of a host that waits: its Crawl-delay turns are ordinary
 * crawling (debug), and a host is said to have asked to slow down only after it answered
 * 429 or 503.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WaitingLog } from '../../src/crawlee/waiting-log.ts';

function recorder() {
  const lines: { level: string; message: string }[] = [];
  const log = {
    info: (message: string) => void lines.push({ level: 'info', message }),
    warning: (message: string) => void lines.push({ level: 'warning', message }),
    debug: (message: string) => void lines.push({ level: 'debug', message }),
  };
  return { lines, log };
}

const URL_A = 'https://a.example/page/1';
const turn = (ms: number) => ({ kind: 'defer', ms, why: 'politeness', spacingMs: 1_000 }) as const;

test("a host with a Crawl-delay and thousands of queued URLs waits for its turns: debug, no 'slow down'", () => {
  const { lines, log } = recorder();
  const waiting = new WaitingLog(log, () => 1_000_000);
  // The 500th URL of a host with Crawl-delay 1 waits 500 s for its turn: still only turns.
  waiting.note(URL_A, turn(1_000), 1_000);
  waiting.note(URL_A, turn(500_000), 500_000);
  assert.deepEqual(
    lines.map((l) => l.level),
    ['debug', 'debug'],
  );
  assert.ok(
    lines.every((l) => !/slow down|429|503/.test(l.message)),
    JSON.stringify(lines),
  );
  assert.match(lines[1]!.message, /Crawl-delay 1 s/);
});

test('after a 429 or 503 from the host, its waits say it asked to slow down, once, at info', () => {
  const { lines, log } = recorder();
  let now = 1_000_000;
  const waiting = new WaitingLog(log, () => now);
  waiting.pausedBy('https://a.example', 60_000);
  waiting.note(URL_A, turn(30_000), 30_000);
  waiting.note(URL_A, turn(31_000), 31_000);
  assert.deepEqual(
    lines.map((l) => [l.level, /asked to slow down \(429\/503/.test(l.message)]),
    [['info', true]],
  );
  waiting.note(URL_A, { kind: 'go', spacingMs: 1_000 });
  assert.match(lines.at(-1)!.message, /a\.example resumes/);
  // The pause is over: turns are turns again.
  now += 120_000;
  waiting.note(URL_A, turn(5_000), 5_000);
  assert.equal(lines.at(-1)!.level, 'debug');
});
