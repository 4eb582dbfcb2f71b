/** IntColumn holds what was put in it, whatever its storage: plain, typed, reserved. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { IntColumn } from '../../src/core/model/columns.ts';

// Small counts, to meet every capacity boundary; a few large ones, past plain storage's limit.
const count = (max: number) => fc.oneof(fc.integer({ min: 0, max }), fc.constant(2100));
const op = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), n: count(20) }),
  fc.record({ kind: fc.constant('push3' as const), n: count(8) }),
  fc.record({ kind: fc.constant('reserve' as const), n: count(30) }),
  fc.record({ kind: fc.constant('append' as const), n: count(30) }),
);

test('every mix of pushes, reservations and appends keeps the values, sealed or not', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 20 }), fc.boolean(), (ops, seal) => {
      const column = new IntColumn();
      const model: number[] = [];
      let next = 0;
      for (const { kind, n } of ops) {
        if (kind === 'push') {
          for (let i = 0; i < n; i++) {
            column.push(next);
            model.push(next++);
          }
        } else if (kind === 'push3') {
          for (let i = 0; i < n; i++) {
            column.push3(next, next + 1, next + 2);
            model.push(next, next + 1, next + 2);
            next += 3;
          }
        } else if (kind === 'reserve') {
          column.reserve(n);
        } else {
          // From the middle of a larger array, as the byte lane's records are.
          const source = Int32Array.from({ length: n + 10 }, (_, i) => next + i - 5);
          column.appendFrom(source, 5, n);
          for (let i = 0; i < n; i++) model.push(next + i);
          next += n + 5;
        }
      }
      if (seal) column.seal();
      assert.equal(column.length, model.length);
      for (let i = 0; i < model.length; i++) assert.equal(column.at(i), model[i]);
      if (seal) assert.equal(column.cells.length, model.length);
    }),
    { numRuns: 1000 },
  );
});
