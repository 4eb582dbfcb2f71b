/**
 * The one bounded table: held to a plain model (an array in use order) by random operations,
 * and its rules said as cases: the least recently used goes first, `peek` leaves the order,
 * the entry just set stays however heavy, and only bound-pushed entries are reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BoundedMap } from '../../src/core/bounded-map.ts';

test('least recently used goes first; get marks use, peek does not', () => {
  const evicted: string[] = [];
  const map = new BoundedMap<string, number>({
    maxEntries: 2,
    onEvict: (key) => evicted.push(key),
  });
  map.set('a', 1).set('b', 2);
  map.get('a');
  map.set('c', 3);
  assert.deepEqual([...map.keys()], ['a', 'c']);
  map.peek('a');
  map.set('d', 4);
  assert.deepEqual([...map.keys()], ['c', 'd']);
  assert.deepEqual(evicted, ['b', 'a']);
  map.delete('c');
  map.set('d', 5); // a replaced value is not an eviction
  map.clear();
  assert.deepEqual(evicted, ['b', 'a']);
  assert.equal(map.size, 0);
});

test('weight bounds the map, and the entry just set stays however heavy', () => {
  const map = new BoundedMap<string, string>({
    maxEntries: 100,
    maxWeight: 10,
    weigh: (value) => value.length,
  });
  map.set('a', 'xxxx').set('b', 'xxxx');
  assert.equal(map.weight, 8);
  map.set('c', 'xxxx');
  assert.deepEqual([...map.keys()], ['b', 'c']);
  map.set('big', 'x'.repeat(50));
  assert.deepEqual([...map.keys()], ['big']);
  assert.equal(map.weight, 50);
  map.set('big', 'x');
  assert.equal(map.weight, 1);
});

test('agrees with a plain model under any operations', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.nat(6), weight: fc.nat(5) }),
    fc.record({ kind: fc.constant('get' as const), key: fc.nat(6) }),
    fc.record({ kind: fc.constant('peek' as const), key: fc.nat(6) }),
    fc.record({ kind: fc.constant('delete' as const), key: fc.nat(6) }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 4 }), fc.nat(12), fc.array(op), (max, cap, ops) => {
      const map = new BoundedMap<number, number>({
        maxEntries: max,
        maxWeight: cap,
        weigh: (w) => w,
      });
      const model: [number, number][] = [];
      const weight = () => model.reduce((sum, [, w]) => sum + w, 0);
      for (const o of ops) {
        const at = model.findIndex(([k]) => k === o.key);
        if (o.kind === 'set') {
          if (at >= 0) model.splice(at, 1);
          model.push([o.key, o.weight]);
          while (model.length > 1 && (model.length > max || weight() > cap)) model.shift();
        } else if (o.kind === 'get') {
          assert.equal(map.get(o.key), at >= 0 ? model[at]![1] : undefined);
          if (at >= 0) model.push(...model.splice(at, 1));
          continue;
        } else if (o.kind === 'peek') {
          assert.equal(map.peek(o.key), at >= 0 ? model[at]![1] : undefined);
          continue;
        } else if (at >= 0) {
          model.splice(at, 1);
        }
        if (o.kind === 'set') map.set(o.key, o.weight);
        else map.delete(o.key);
        assert.deepEqual(
          [...map.keys()],
          model.map(([k]) => k),
        );
        assert.equal(map.weight, weight());
      }
    }),
  );
});
