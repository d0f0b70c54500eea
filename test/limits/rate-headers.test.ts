import { describe, expect, it } from 'vitest';
import { formatDuration, getRateHeaders } from '../../src/limits/rate-headers.ts';

describe('formatDuration', () => {
  it('formats reset times like OpenAI (Go durations)', () => {
    expect(formatDuration(20)).toBe('20ms');
    expect(formatDuration(999.6)).toBe('1s');
    expect(formatDuration(1500)).toBe('1.5s');
    expect(formatDuration(60_000)).toBe('1m0s');
    expect(formatDuration(361_250)).toBe('6m1.25s');
    expect(formatDuration(3_600_000)).toBe('1h0m0s');
    expect(formatDuration(-5)).toBe('0ms');
  });
});

describe('getRateHeaders', () => {
  it('sends headers only for the limits a key has', () => {
    const requests = { allowed: true, limit: 5, remaining: 4, resetSeconds: 60 };
    expect(getRateHeaders({ verdict: 'ok', requests })).toEqual({
      'x-ratelimit-limit-requests': '5',
      'x-ratelimit-remaining-requests': '4',
      'x-ratelimit-reset-requests': '1m0s',
    });
    expect(getRateHeaders({ verdict: 'ok', concurrency: { limit: 1, inUse: 1 } })).toEqual({});
  });
});
