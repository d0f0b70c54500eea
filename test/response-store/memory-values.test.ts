import { describe, expect, test } from 'vitest';
import { createMemoryValues } from '../../src/response-store/memory-values.ts';

describe('memory values (Responses state without Redis)', () => {
  test('a value expires after its TTL', async () => {
    let now = 1000;
    const values = createMemoryValues({ now: () => now });
    await values.set([['a', 'one']], 500);
    expect(await values.get('a')).toBe('one');
    now = 1499;
    expect(await values.get('a')).toBe('one');
    now = 1500;
    expect(await values.get('a')).toBeUndefined();
  });

  test('bounded by count: the oldest written are dropped first', async () => {
    const values = createMemoryValues({ maxEntries: 2 });
    await values.set([['a', '1'], ['b', '2']], 60_000);
    await values.set([['c', '3']], 60_000);
    expect([await values.get('a'), await values.get('b'), await values.get('c')]).toEqual([undefined, '2', '3']);
  });

  test('bounded by size: a write past the byte bound drops the oldest until it fits', async () => {
    const values = createMemoryValues({ maxBytes: 30 });
    await values.set([['a', 'x'.repeat(10)]], 60_000);
    await values.set([['b', 'y'.repeat(10)]], 60_000);
    await values.set([['c', 'z'.repeat(10)]], 60_000);
    expect([await values.get('a'), await values.get('b'), await values.get('c')]).toEqual([undefined, 'y'.repeat(10), 'z'.repeat(10)]);
  });

  test('rewriting a key replaces it (its bytes counted once); delete removes', async () => {
    const values = createMemoryValues({ maxBytes: 12 });
    await values.set([['a', '12345']], 60_000);
    await values.set([['a', '67890']], 60_000);
    await values.set([['b', '1']], 60_000);
    expect([await values.get('a'), await values.get('b')]).toEqual(['67890', '1']);
    await values.delete(['a', 'missing']);
    expect(await values.get('a')).toBeUndefined();
  });
});
