import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DueHeap } from '../../src/crawlee/due-heap.ts';

test('a DueHeap hands items back in the order they are due, and none before its time', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 300 }),
      fc.integer({ min: 0, max: 1_000 }),
      (times, now) => {
        const heap = new DueHeap<number>();
        times.forEach((at, i) => heap.push(at, i));
        assert.equal(heap.size, times.length);
        const taken: number[] = [];
        for (let item = heap.takeDue(now); item !== undefined; item = heap.takeDue(now)) {
          taken.push(times[item]!);
        }
        const due = times.filter((at) => at <= now).sort((a, b) => a - b);
        assert.deepEqual(taken, due);
        assert.equal(heap.size, times.length - due.length);
        if (heap.size > 0) assert.ok(heap.nextAt! > now);
        assert.equal(heap.drain().length, times.length - due.length);
        assert.equal(heap.size, 0);
        assert.equal(heap.nextAt, undefined);
      },
    ),
  );
});
