/**
 * A directory's files as captures: read ahead of the one measured (in order, a bounded number
 * in flight), each through one handle (a named pipe passed over without waiting for a writer,
 * a file larger than its `fstat` size read whole).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Capture } from '../../src/scan/index.ts';
import { fileCapture } from '../../src/scan/file-captures.ts';
import { capturesOf, directoryCaptures } from '../../src/scan/inputs.ts';
import { readAhead } from '../../src/scan/read-ahead.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'repkit-files-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A read that settles when told to, counting the reads in flight. */
function gatedReads<T>() {
  let inFlight = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  return {
    read: (value: T) => {
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise<T>((resolve) =>
        waiting.push(() => {
          inFlight--;
          resolve(value);
        }),
      );
    },
    /** Settles the waiting reads, newest first (out of order), until none is left. */
    async settleAll() {
      while (waiting.length > 0) waiting.pop()!();
      await new Promise((resolve) => setImmediate(resolve));
    },
    get most() {
      return most;
    },
    get inFlight() {
      return inFlight;
    },
  };
}

/**
 * Settles `gate`'s reads until `done` settles (the reads that follow do real I/O: a short
 * wait between rounds), checking `each` round; bounded, so a read never settled cannot hang.
 */
async function settleUntil(
  done: Promise<unknown>,
  gate: { settleAll(): Promise<void> },
  each: () => void = () => {},
): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => {});
  for (let round = 0; !finished && round < 2000; round++) {
    each();
    await gate.settleAll();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await done;
}

test('readAhead: results in the order of the items, however the reads settle, at most `ahead` in flight', async () => {
  const gate = gatedReads<number>();
  const items = Array.from({ length: 20 }, (_, i) => i);
  const results: number[] = [];
  const reading = (async () => {
    for await (const value of readAhead(items, 4, gate.read)) results.push(value);
  })();
  // Reads settled newest first, repeatedly: the order given back is still the items'.
  await settleUntil(reading, gate, () =>
    assert.ok(gate.inFlight <= 4, `${gate.inFlight} in flight`),
  );
  assert.deepEqual(results, items);
  // The reads overlap (one at a time was the directory's idle half), up to the bound.
  assert.equal(gate.most, 4);
});

test('readAhead: a caller that stops early leaves no read to fail unwatched; a bad `ahead` is refused', async () => {
  let started = 0;
  const read = async (i: number) => {
    started++;
    await new Promise((resolve) => setImmediate(resolve));
    return i;
  };
  for await (const value of readAhead([0, 1, 2, 3, 4, 5, 6, 7], 3, read)) {
    if (value === 1) break;
  }
  // Three ahead: 0 to 2, then 3 and 4 as 0 and 1 were handed over; none after the stop.
  assert.equal(started, 5);
  for (const ahead of [0, -1, 1.5, Number.NaN]) {
    await assert.rejects(readAhead([1], ahead, read).next(), RangeError);
  }
});

test('a directory: files read side by side, captures in name order, an unreadable one named after the rest', async () => {
  const files = join(dir, 'side-by-side');
  await rm(files, { recursive: true, force: true });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(files);
  const names = Array.from(
    { length: 12 },
    (_, i) => `site${String(i).padStart(2, '0')}.example.txt`,
  );
  for (const name of names)
    await writeFile(join(files, name), `User-agent: *\nDisallow: /${name}\n`);
  const gate = gatedReads<string>();
  const read = async (path: string, input: string): Promise<Capture | undefined> => {
    await gate.read(path);
    if (path.endsWith('site03.example.txt')) {
      throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
    }
    // A read that finds nothing there (removed since the listing) is passed over.
    if (path.endsWith('site07.example.txt')) return undefined;
    return fileCapture(path, input);
  };
  const hosts: string[] = [];
  const positions: number[] = [];
  const reading = (async () => {
    for await (const capture of directoryCaptures(files, (p) => positions.push(p), 5, read)) {
      hosts.push(capture.host);
    }
  })();
  const outcome = reading.then(
    () => undefined,
    (error: Error) => error,
  );
  await settleUntil(outcome, gate);
  const error = await outcome;
  assert.equal(gate.most, 5);
  assert.deepEqual(
    hosts,
    names.filter((_, i) => i !== 3 && i !== 7).map((name) => name.replace(/\.txt$/, '')),
  );
  assert.deepEqual(
    positions,
    [...positions].sort((a, b) => a - b),
  );
  assert.equal(
    error?.message,
    'could not read 1 of its files (the rest were read): site03.example.txt (EIO: i/o error, read)',
  );
});

/** `work`, or a failure if it has not settled in 30 s. */
async function within<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('still waiting after 30 s')), 30_000);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('a named pipe in a directory is passed over at once: it is opened without waiting for a writer', async () => {
  const files = join(dir, 'with-pipe');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(files, { recursive: true });
  await writeFile(join(files, 'a.example.txt'), 'User-agent: *\nDisallow: /a\n');
  execFileSync('mkfifo', [join(files, 'b.example.txt')]);
  await writeFile(join(files, 'c.example.txt'), 'User-agent: *\nDisallow: /c\n');
  // Nothing ever writes to the pipe: an open that waited for a writer would never return
  // (the race fails the test instead of hanging it).
  assert.equal(await within(fileCapture(join(files, 'b.example.txt'), files)), undefined);
  const hosts: string[] = [];
  await within(
    (async () => {
      for await (const capture of directoryCaptures(files, () => {})) hosts.push(capture.host);
    })(),
  );
  assert.deepEqual(hosts, ['a.example', 'c.example']);
  // Given on its own, the pipe is an input that cannot be read: an error, not a wait.
  const pipe = join(files, 'b.example.txt');
  await assert.rejects(
    within(capturesOf({ kind: 'file', path: pipe, bytes: 0 }).next()),
    new Error(`${pipe} is not a regular file (or was removed since the scan began)`),
  );
});

test('a file that holds more than its fstat size says is read whole (procfs gives 0), to the limit', async () => {
  const { readFileSync } = await import('node:fs');
  const capture = await fileCapture('/proc/self/status', '/proc/self');
  assert.ok(capture);
  const text = Buffer.from(capture.body).toString('latin1');
  assert.match(text, /^Name:/);
  assert.match(text, /\nPid:\s+\d+\n/);
  // As long as what `readFileSync` finds (which reads to the end whatever the size says).
  assert.ok(Math.abs(capture.body.length - readFileSync('/proc/self/status').length) < 64);
  // Read to `max` only, the limit a record's body has.
  const cut = await fileCapture('/proc/self/status', '/proc/self', 10);
  assert.equal(Buffer.from(cut!.body).toString('latin1'), text.slice(0, 10));
  // A regular file, larger than the limit, to the limit exactly (and no larger buffer).
  const big = join(dir, 'big.example.txt');
  await writeFile(big, 'x'.repeat(5000));
  const read = await fileCapture(big, dir, 4096);
  assert.equal(read!.body.length, 4096);
  assert.equal(read!.body.buffer.byteLength, 4096);
  assert.equal(read!.host, 'big.example');
});
