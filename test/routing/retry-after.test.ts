import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readRetryAfter } from '../../src/routing/retry-after.ts';

describe('Retry-After', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('prefers retry-after-ms over retry-after in response headers', () => {
    expect(readRetryAfter({ 'retry-after-ms': '250', 'retry-after': '1' }, now)).toBe(250);
    expect(readRetryAfter({ 'retry-after': ['2'] }, now)).toBe(2000);
    expect(readRetryAfter({}, now)).toBeUndefined();
  });
});
