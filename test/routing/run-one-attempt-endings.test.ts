import { describe, expect, it } from 'vitest';
import type { TargetEntry } from '../../src/config/types.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { AttemptTimeoutError, runOneAttempt, type AttemptContext } from '../../src/routing/run-one-attempt.ts';

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

  it('a successful attempt that never committed is not aborted later by its budget', async () => {
    let seen: AttemptContext | undefined;
    const outcome = await runOneAttempt(async (context) => {
      seen = context;
      return 'answer';
    }, init, new AbortController().signal, 20);
    expect(outcome.ok).toBe(true);
    await sleep(60);
    expect(seen!.signal.aborted).toBe(false);
  });

  it('the client leaving aborts the attempt with the same reason, and the attempt fails with it', async () => {
    const parent = new AbortController();
    const reason = new Error('client left');
    let seen: AttemptContext | undefined;
    const running = runOneAttempt((context) => {
      seen = context;
      return new Promise<never>(() => undefined);
    }, init, parent.signal, Infinity);
    parent.abort(reason);
    expect(await running).toEqual({ ok: false, error: reason, committed: false, timedOut: false });
    expect(seen!.signal.reason).toBe(reason);
  });

  it('an attempt out of budget fails with an AttemptTimeoutError that names the budget', async () => {
    const outcome = await runOneAttempt(() => new Promise<never>(() => undefined), init, new AbortController().signal, 30);
    expect(outcome).toMatchObject({ ok: false, committed: false, timedOut: true });
    const error = (outcome as { error: AttemptTimeoutError }).error;
    expect(error).toBeInstanceOf(AttemptTimeoutError);
    expect(error.name).toBe('AttemptTimeoutError');
    expect(error.message).toBe('The attempt got no answer within 30 ms.');
    expect(error.timeoutMs).toBe(30);
  });
});
