import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readRetryAfter } from '../../src/routing/retry-after.ts';

const now = Date.parse('2025-01-01T00:00:00Z');

describe('Retry-After values that are not delay-seconds', () => {
  // (Values such as `-1`, `1.` or `.5` are no delay-seconds either, but V8's Date.parse reads them as dates
  // of 2001, in the past: a wait of 0.)
  it.each(['a1', '1a', 'a1.5', '1.5a', '1.5s', '1e3', '0x10'])('%s is unreadable, not a number of seconds', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it('reads multi-digit seconds and fractions', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0.25', now)).toBe(250);
    expect(parseRetryAfter('10.125', now)).toBe(10_125);
  });

  it('an empty or blank value is absent', () => {
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('   ', now)).toBeUndefined();
  });

  it('an HTTP-date is counted from the given now', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:07 GMT', now + 2000)).toBe(5000);
  });
});

describe('retry-after-ms', () => {
  it('an unreadable retry-after-ms falls back to retry-after', () => {
    expect(readRetryAfter({ 'retry-after-ms': 'soon', 'retry-after': '1' }, now)).toBe(1000);
    expect(readRetryAfter({ 'retry-after-ms': '1a', 'retry-after': '2' }, now)).toBe(2000);
  });

  it('is trimmed, taken first when repeated, and may be fractional', () => {
    expect(readRetryAfter({ 'retry-after-ms': ' 250 ' }, now)).toBe(250);
    expect(readRetryAfter({ 'retry-after-ms': ['40', '90'] }, now)).toBe(40);
    expect(readRetryAfter({ 'retry-after-ms': '12.5' }, now)).toBe(12.5);
  });

  it('a repeated retry-after is read from its first value', () => {
    expect(readRetryAfter({ 'retry-after': ['3', '9'] }, now)).toBe(3000);
  });

  it('an HTTP-date in retry-after is counted from the given now', () => {
    expect(readRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }, now)).toBe(7000);
  });
});
