import { describe, expect, it } from 'vitest';
import type { TargetEntry } from '../../src/config/types.ts';
import { runOneAttempt, type AttemptContext } from '../../src/routing/run-one-attempt.ts';

const init = { target: { vendor: 'v', upstream: 'm', weight: 1 } as TargetEntry, number: 1, retry: 0, probe: false };

describe('how one attempt ends', () => {
  it('an attempt function that throws at once (not a rejected promise) is a failed attempt', async () => {
    const error = new Error('thrown synchronously');
    const outcome = await runOneAttempt(() => {
      throw error;
    }, init, new AbortController().signal, Infinity);
    expect(outcome).toEqual({ ok: false, error, committed: false, timedOut: false });
  });

  it('a failed attempt has its signal aborted, so whatever it left running stops', async () => {
    let seen: AttemptContext | undefined;
    const outcome = await runOneAttempt(async (context) => {
      seen = context;
      throw new Error('vendor said no');
    }, init, new AbortController().signal, Infinity);
    expect(outcome.ok).toBe(false);
    expect(seen!.signal.aborted).toBe(true);
    expect((seen!.signal.reason as Error).message).toBe('The attempt was given up.');
  });

  it('a successful attempt keeps its signal open (its stream may still be flowing)', async () => {
    let seen: AttemptContext | undefined;
    const outcome = await runOneAttempt(async (context) => {
      seen = context;
      context.commit();
      return 'answer';
    }, init, new AbortController().signal, 50);
    expect(outcome).toEqual({ ok: true, value: 'answer' });
    expect(seen!.signal.aborted).toBe(false);
  });
});
