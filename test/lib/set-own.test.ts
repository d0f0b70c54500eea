import { describe, expect, it } from 'vitest';
import { setOwn } from '../../src/lib/set-own.ts';

describe('setOwn', () => {
  it('writes `__proto__` as an own enumerable entry, leaving the prototype alone', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__']);
    expect(JSON.stringify(target)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('writes any other name as plain assignment does, prototype names included', () => {
    const target: Record<string, unknown> = {};
    for (const name of ['a', 'constructor', 'toString', '']) setOwn(target, name, name.length);
    expect(target).toEqual({ a: 1, constructor: 11, toString: 8, '': 0 });
  });
});
