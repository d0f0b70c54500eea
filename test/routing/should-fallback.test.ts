import { describe, expect, it } from 'vitest';
import { isTransient, shouldFallback } from '../../src/routing/should-fallback.ts';

describe('shouldFallback', () => {
  const policy = { fallbackOn: ['429', '5xx', 'timeout', 'connect'] };

  it('falls back on the conditions named in YAML and on nothing else', () => {
    expect(shouldFallback({ kind: 'status', status: 429 }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 500 }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 503 }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'timeout' }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'connect' }, policy)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 400 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'content_policy', status: 400 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'context_length', status: 400 }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'aborted' }, policy)).toBe(false);
    expect(shouldFallback({ kind: 'other' }, policy)).toBe(false);
  });

  it('falls back on content-policy and context-length refusals only when named', () => {
    const named = { fallbackOn: ['content_policy', 'context_length', '404'] };
    expect(shouldFallback({ kind: 'content_policy', status: 400 }, named)).toBe(true);
    expect(shouldFallback({ kind: 'context_length', status: 400 }, named)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 404 }, named)).toBe(true);
    expect(shouldFallback({ kind: 'status', status: 429 }, named)).toBe(false);
  });

  it('retries on the same target only transient failures', () => {
    expect(isTransient({ kind: 'status', status: 429 })).toBe(true);
    expect(isTransient({ kind: 'status', status: 502 })).toBe(true);
    expect(isTransient({ kind: 'timeout' })).toBe(true);
    expect(isTransient({ kind: 'connect' })).toBe(true);
    expect(isTransient({ kind: 'status', status: 404 })).toBe(false);
    expect(isTransient({ kind: 'content_policy', status: 400 })).toBe(false);
  });
});
