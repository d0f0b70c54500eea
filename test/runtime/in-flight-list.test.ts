import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InFlightList, type InFlightItem } from '../../src/runtime/in-flight-list.ts';

const item = (name: string): InFlightItem & { name: string } => ({ name, inFlightSlot: -1 });

describe('InFlightList', () => {
  it('holds what was added and not deleted, in any order of adds and deletes (a Set is the reference)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 7 })), { maxLength: 60 }), (steps) => {
        const items = Array.from({ length: 8 }, (_, i) => item(`r${i}`));
        const list = new InFlightList<(typeof items)[number]>();
        const reference = new Set<(typeof items)[number]>();
        for (const [adding, index] of steps) {
          const chosen = items[index];
          if (adding && !reference.has(chosen)) {
            list.add(chosen);
            reference.add(chosen);
          } else if (!adding) {
            expect(list.delete(chosen)).toBe(reference.delete(chosen));
          }
          expect(list.size).toBe(reference.size);
          expect(new Set(list)).toEqual(reference);
        }
      }),
    );
  });

  it('says an item of another list, or of none, was not in it, and leaves both lists as they were', () => {
    const [a, b] = [new InFlightList(), new InFlightList()];
    const [x, y, z] = [item('x'), item('y'), item('z')];
    a.add(x);
    b.add(y);
    expect([a.delete(y), a.delete(z), b.delete(x)]).toEqual([false, false, false]);
    expect([[...a], [...b]]).toEqual([[x], [y]]);
  });

  it('lets the items be deleted while iterating over them (the drain deadline ends each one)', () => {
    const list = new InFlightList<InFlightItem & { name: string }>();
    const items = ['a', 'b', 'c', 'd'].map(item);
    for (const each of items) list.add(each);
    const seen: string[] = [];
    for (const each of list) {
      seen.push(each.name);
      list.delete(each);
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(list.size).toBe(0);
    expect(items.map((each) => each.inFlightSlot)).toEqual([-1, -1, -1, -1]);
  });
});
