/** IntColumn holds what was put in it, whatever its storage: plain, typed, reserved. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { IntColumn } from '../../src/core/model/columns.ts';
import { GroupTable } from '../../src/core/model/tables.ts';

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
      // Empty columns share their storage until their first value: none was written into it.
      assert.equal(new IntColumn().cells.length, 0);
    }),
    { numRuns: 1000 },
  );
});

test('group tables keep their groups and agents, one or many, and never share them', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 4 }), {
        maxLength: 5,
      }),
      fc.boolean(),
      (groups, seal) => {
        const table = new GroupTable();
        let line = 1;
        groups.forEach((agents, g) => {
          assert.equal(table.startGroup(10 * g), g);
          for (const agent of agents) table.addAgent(agent, line++, agent.toLowerCase());
        });
        if (seal) table.seal();
        assert.equal(table.size, groups.length);
        const all = groups.flat();
        assert.deepEqual(table.agentValues, all);
        assert.deepEqual(
          table.agentTokens,
          all.map((a) => a.toLowerCase()),
        );
        assert.deepEqual(
          table.agentLines,
          all.map((_, i) => i + 1),
        );
        let first = 0;
        groups.forEach((agents, g) => {
          assert.deepEqual(table.agentRange(g), [first, first + agents.length]);
          assert.equal(table.firstRule(g), 10 * g);
          first += agents.length;
        });
        // A table made after it starts empty: the first values did not go into shared storage.
        const fresh = new GroupTable();
        assert.equal(fresh.size, 0);
        assert.deepEqual(
          [fresh.agentValues, fresh.agentLines, fresh.agentTokens, fresh.ruleStart],
          [[], [], [], []],
        );
      },
    ),
    { numRuns: 500 },
  );
});
