import { describe, expect, it } from 'vitest';
import { createRequestId } from '../../src/runtime/request-id.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createRequestId', () => {
  it('gives version 4 UUIDs in lower-case hex, all different, across many refills of its random pool', () => {
    const ids = Array.from({ length: 20_000 }, () => createRequestId());
    expect(ids.filter((id) => !UUID_V4.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every hex digit in every free position (random, not a counter)', () => {
    const ids = Array.from({ length: 4_000 }, () => createRequestId());
    for (let position = 0; position < 36; position++) {
      const seen = new Set(ids.map((id) => id[position]));
      if ([8, 13, 18, 23].includes(position)) expect([position, [...seen]]).toEqual([position, ['-']]);
      else if (position === 14) expect([...seen]).toEqual(['4']);
      else if (position === 19) expect([...seen].sort()).toEqual(['8', '9', 'a', 'b']);
      else expect([position, seen.size]).toEqual([position, 16]);
    }
  });

  it('gives strings that stay as they were when later ids are made', () => {
    const first = createRequestId();
    const copy = `${first}`.split('').join('');
    for (let i = 0; i < 1_000; i++) createRequestId();
    expect(first).toBe(copy);
  });
});
