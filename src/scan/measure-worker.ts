/**
 * A worker thread of `repkit scan`'s pool (measure-pool.ts): measures the inputs it is sent,
 * one at a time, posting each batch; it reads the next while the pool writes that one, and
 * posts it only once that one is taken: two batches at most, and the two threads overlap.
 */
import { parentPort } from 'node:worker_threads';
import { measureInput, type MeasuredBatch } from './measure.ts';
import type { ToWorker, FromWorker } from './measure-pool.ts';

const port = parentPort!;
let taken: (() => void) | undefined;

port.on('message', (message: ToWorker) => {
  if (message.type === 'taken') {
    taken?.();
    return;
  }
  const post = (reply: FromWorker) => port.postMessage(reply);
  let writing: Promise<void> = Promise.resolve();
  measureInput(message.input, message.agents, async (batch: MeasuredBatch) => {
    await writing;
    writing = new Promise<void>((resolve) => (taken = resolve));
    post({ type: 'batch', batch });
  }).then(
    async (measured) => {
      await writing;
      post({ type: 'done', measured });
    },
    (error: unknown) => post({ type: 'failed', message: String(error) }),
  );
});
