import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AbortSource } from '../../src/runtime/abort-source.ts';

/** Adds and removals of four listeners (each may be added more than once), in any order. */
const operations = fc.array(fc.record({ add: fc.boolean(), listener: fc.integer({ min: 0, max: 3 }) }), { maxLength: 30 });

describe('AbortSource listeners', () => {
  it('calls on abort the listeners left, in order, as an indexOf-and-splice list would', () => {
    fc.assert(
      fc.property(operations, (ops) => {
        const called: number[] = [];
        const listeners = [0, 1, 2, 3].map((n) => () => void called.push(n));
        const source = new AbortSource();
        const reference: number[] = [];
        for (const { add, listener } of ops) {
          if (add) {
            source.on('abort', listeners[listener]);
            reference.push(listener);
          } else {
            source.removeListener('abort', listeners[listener]);
            const at = reference.indexOf(listener);
            if (at !== -1) reference.splice(at, 1);
          }
        }
        source.abort();
        expect(called).toEqual(reference);
      }),
      { numRuns: 2000 },
    );
  });
});
