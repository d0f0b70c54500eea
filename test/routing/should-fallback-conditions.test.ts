import { describe, expect, it } from 'vitest';
import { isTransient, shouldFallback } from '../../src/routing/should-fallback.ts';

describe('fallbackOn conditions', () => {
  it('a status class matches its own hundred only', () => {
    const policy = { fallbackOn: ['4xx'] };
    expect(shouldFallback({ kind: 'status', status: 400 }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 499 }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 399 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'status', status: 500 }, policy)).toBe(false);
  });

  it('an exact status matches that status only', () => {
    const policy = { fallbackOn: ['503'] };
    expect(shouldFallback({ kind: 'status', status: 503 }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 502 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'status', status: 504 }, policy)).toBe(false);
  });

  it('a status condition never matches a timeout, connect or refusal failure, nor a status failure without status', () => {
    const policy = { fallbackOn: ['4xx', '5xx', '400'] };
    expect(shouldFallback({ kind: 'content_policy', status: 400 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'context_length', status: 413 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'timeout', status: 504 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'status' }, policy)).toBe(false);
  });

  it('a condition that is not three characters long matches nothing', () => {
    expect(shouldFallback({ kind: 'status', status: 50 }, { fallbackOn: ['50'] })).toBe(false);
    expect(shouldFallback({ kind: 'status', status: 503 }, { fallbackOn: ['5xxx'] })).toBe(false);
    expect(shouldFallback({ kind: 'status', status: 503 }, { fallbackOn: ['0503'] })).toBe(false);
  });

  it('each named kind matches only its own kind', () => {
    for (const kind of ['timeout', 'connect', 'content_policy', 'context_length'] as const) {
      for (const other of ['timeout', 'connect', 'content_policy', 'context_length', 'aborted', 'other'] as const) {
        expect(shouldFallback({ kind: other }, { fallbackOn: [kind] })).toBe(kind === other);
      }
    }
  });

  it('no condition, no fallback', () => {
    expect(shouldFallback({ kind: 'timeout' }, { fallbackOn: [] })).toBe(false);
  });
});

describe('isTransient', () => {
  it('500 and above and 429 are transient; 499, 428 and 430 are not', () => {
    expect(isTransient({ kind: 'status', status: 500 })).toBe(true);
    expect(isTransient({ kind: 'status', status: 599 })).toBe(true);
    expect(isTransient({ kind: 'status', status: 499 })).toBe(false);
    expect(isTransient({ kind: 'status', status: 428 })).toBe(false);
    expect(isTransient({ kind: 'status', status: 430 })).toBe(false);
  });

  it('a status failure without status, a client that left and an other failure are not transient', () => {
    expect(isTransient({ kind: 'status' })).toBe(false);
    expect(isTransient({ kind: 'aborted' })).toBe(false);
    expect(isTransient({ kind: 'other' })).toBe(false);
    expect(isTransient({ kind: 'context_length', status: 503 })).toBe(false);
  });
});
