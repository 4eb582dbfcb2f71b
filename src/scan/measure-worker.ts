/**
 * A worker thread of `repkit scan`'s pool (pool.ts): measures the inputs it is sent, one at a
 * time, posting each batch and waiting for the pool to take it before reading on.
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
  measureInput(message.input, message.agents, (batch: MeasuredBatch) => {
    const waiting = new Promise<void>((resolve) => (taken = resolve));
    post({ type: 'batch', batch });
    return waiting;
  }).then(
    (measured) => post({ type: 'done', measured }),
    (error: unknown) => post({ type: 'failed', message: String(error) }),
  );
});
