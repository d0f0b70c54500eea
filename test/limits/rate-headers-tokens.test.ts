import { describe, expect, it } from 'vitest';
import { formatDuration, getRateHeaders } from '../../src/limits/rate-headers.ts';

describe('rate-limit headers of both windows', () => {
  it('names the token window with the -tokens headers, beside the -requests ones', () => {
    const requests = { allowed: true, limit: 60, remaining: 59, resetSeconds: 0.02 };
    const tokens = { allowed: false, limit: 1000, remaining: 0, resetSeconds: 3723.5 };
    expect(getRateHeaders({ verdict: 'tpm', requests, tokens })).toEqual({
      'x-ratelimit-limit-requests': '60',
      'x-ratelimit-remaining-requests': '59',
      'x-ratelimit-reset-requests': '20ms',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '1h2m3.5s',
    });
    expect(getRateHeaders({ verdict: 'ok', tokens })).toEqual({
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '1h2m3.5s',
    });
  });
});

describe('formatDuration at the unit boundaries', () => {
  it('switches from ms to s at one second, and shows whole minutes and hours', () => {
    expect(formatDuration(999)).toBe('999ms');
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(59_999)).toBe('59.999s');
    expect(formatDuration(3_599_000)).toBe('59m59s');
    expect(formatDuration(3_661_000)).toBe('1h1m1s');
    expect(formatDuration(0)).toBe('0ms');
  });
});
