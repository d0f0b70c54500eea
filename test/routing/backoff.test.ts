import { describe, expect, it } from 'vitest';
import { getRetryDelay } from '../../src/routing/backoff.ts';

describe('getRetryDelay', () => {
  const backoff = { baseMs: 100, maxMs: 1000 };

  it('draws full jitter below an exponentially growing ceiling', () => {
    const input = (random: number) => ({ backoff, random: () => random, now: 0, deadline: 60_000 });
    expect(getRetryDelay(1, { kind: 'timeout' }, input(0.999))).toBe(99);
    expect(getRetryDelay(2, { kind: 'timeout' }, input(0.999))).toBe(199);
    expect(getRetryDelay(3, { kind: 'timeout' }, input(0.5))).toBe(200);
    expect(getRetryDelay(10, { kind: 'timeout' }, input(0.999))).toBe(999);
    expect(getRetryDelay(3, { kind: 'timeout' }, input(0))).toBe(0);
  });

  it('waits at least the Retry-After the vendor asked for', () => {
    const input = { backoff, random: () => 0.5, now: 0, deadline: 60_000 };
    expect(getRetryDelay(1, { kind: 'status', status: 429, retryAfterMs: 3000 }, input)).toBe(3000);
  });

  it('gives up waiting when the wait would reach the deadline', () => {
    const input = { backoff, random: () => 0.5, now: 10_000, deadline: 12_000 };
    expect(getRetryDelay(1, { kind: 'status', status: 429, retryAfterMs: 2000 }, input)).toBeUndefined();
    expect(getRetryDelay(1, { kind: 'status', status: 429, retryAfterMs: 1500 }, input)).toBe(1500);
  });
});
