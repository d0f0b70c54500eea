import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RoutingPolicy, TargetEntry } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { runAttempts, type RunAttemptsOptions } from '../../src/routing/run-attempts.ts';
import { AttemptTimeoutError, type AttemptContext } from '../../src/routing/run-one-attempt.ts';
import { createTargetHealth } from '../../src/routing/target-health.ts';

const a: TargetEntry = { vendor: 'a', upstream: 'model-a', weight: 1 };
const b: TargetEntry = { vendor: 'b', upstream: 'model-b', weight: 1 };
const c: TargetEntry = { vendor: 'c', upstream: 'model-c', weight: 1 };

function makePolicy(extra: Partial<RoutingPolicy> = {}): RoutingPolicy {
  return { retries: 0, fallbackOn: ['429', '5xx', 'timeout', 'connect'], cooldownAfter: 0, cooldownMs: 0, ...extra };
}

type Behaviour = (context: AttemptContext) => Promise<string>;

/** Runs attempts against scripted targets, recording each call and each backoff wait. */
function createRun(script: Record<string, Behaviour[]>) {
  const calls: string[] = [];
  const sleeps: number[] = [];
  const seen: AttemptContext[] = [];
  const run = (options: Partial<RunAttemptsOptions<string>> & { targets: TargetEntry[] }) =>
    runAttempts<string>({
      policy: makePolicy(),
      signal: new AbortController().signal,
      deadline: Date.now() + 10_000,
      random: () => 0.5,
      backoff: { baseMs: 100, maxMs: 1000 },
      sleep: async (ms) => void sleeps.push(ms),
      attempt: (context) => {
        calls.push(`${context.target.vendor}#${context.number}${context.probe ? ' probe' : ''}`);
        seen.push(context);
        const behaviours = script[context.target.vendor];
        const next = behaviours.length > 1 ? behaviours.shift()! : behaviours[0];
        return next(context);
      },
      ...options,
    });
  return { run, calls, sleeps, seen };
}

const ok = (text: string): Behaviour => async (context) => {
  context.commit();
  return text;
};
const fail = (status: number, retryAfter?: number): Behaviour => async () => {
  throw new GatewayError(status, status === 429 ? 'rate_limit_exceeded' : 'upstream_error', `vendor said ${status}`, { retryAfter });
};
const reset: Behaviour = async () => {
  throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
};
const hang: Behaviour = (context) =>
  new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason)));

describe('runAttempts', () => {
  it('falls back to the next target on a condition named in fallbackOn', async () => {
    const { run, calls } = createRun({ a: [fail(500)], b: [ok('from b')] });
    await expect(run({ targets: [a, b] })).resolves.toBe('from b');
    expect(calls).toEqual(['a#1', 'b#2']);
  });

  it('ends with the attempt error at once on a failure not named in fallbackOn', async () => {
    const { run, calls } = createRun({ a: [fail(400)], b: [ok('from b')] });
    await expect(run({ targets: [a, b] })).rejects.toMatchObject({ status: 400, message: 'vendor said 400' });
    expect(calls).toEqual(['a#1']);
  });

  it('retries a transient failure on the same target with backoff honouring Retry-After', async () => {
    const { run, calls, sleeps } = createRun({ a: [fail(429, 3), fail(503), ok('third time')], b: [ok('from b')] });
    await expect(run({ targets: [a, b], policy: makePolicy({ retries: 2 }) })).resolves.toBe('third time');
    expect(calls).toEqual(['a#1', 'a#2', 'a#3']);
    expect(sleeps).toEqual([3000, 100]);
  });

  it('moves on to the fallback at once when Retry-After would pass the deadline', async () => {
    const { run, calls, sleeps } = createRun({ a: [fail(429, 30)], b: [ok('from b')] });
    const result = run({ targets: [a, b], policy: makePolicy({ retries: 3 }), deadline: Date.now() + 5000 });
    await expect(result).resolves.toBe('from b');
    expect(calls).toEqual(['a#1', 'b#2']);
    expect(sleeps).toEqual([]);
  });

  it('falls back on a content-policy refusal without retrying it on the same target', async () => {
    const refuse: Behaviour = async () => {
      throw new GatewayError(400, 'content_policy_violation', 'refused');
    };
    const { run, calls } = createRun({ a: [refuse], b: [ok('from b')] });
    const policy = makePolicy({ retries: 2, fallbackOn: ['content_policy'] });
    await expect(run({ targets: [a, b], policy })).resolves.toBe('from b');
    expect(calls).toEqual(['a#1', 'b#2']);
  });

  it('never retries nor falls back once the attempt has committed', async () => {
    const midStream: Behaviour = async (context) => {
      context.commit();
      await sleep(5);
      throw Object.assign(new Error('terminated'), { code: 'UND_ERR_SOCKET' });
    };
    const { run, calls } = createRun({ a: [midStream], b: [ok('from b')] });
    await expect(run({ targets: [a, b], policy: makePolicy({ retries: 2 }) })).rejects.toThrow('terminated');
    expect(calls).toEqual(['a#1']);
  });

  it('still falls back when a stream fails before its first byte reached the client', async () => {
    const { run, calls } = createRun({ a: [reset], b: [ok('from b')] });
    await expect(run({ targets: [a, b] })).resolves.toBe('from b');
    expect(calls).toEqual(['a#1', 'b#2']);
  });

  it('aborts an attempt that gets no answer within attemptTimeoutMs and falls back', async () => {
    const { run, calls, seen } = createRun({ a: [hang], b: [ok('from b')] });
    const started = Date.now();
    await expect(run({ targets: [a, b], policy: makePolicy({ attemptTimeoutMs: 50 }) })).resolves.toBe('from b');
    expect(Date.now() - started).toBeLessThan(500);
    expect(calls).toEqual(['a#1', 'b#2']);
    expect(seen[0].signal.reason).toBeInstanceOf(AttemptTimeoutError);
    expect(seen[1].signal.aborted).toBe(false);
  });

  it('abandons an attempt that ignores its signal, and forbids it to commit later', async () => {
    const deaf: Behaviour = () => new Promise(() => undefined);
    const { run, calls, seen } = createRun({ a: [deaf], b: [ok('from b')] });
    await expect(run({ targets: [a, b], policy: makePolicy({ attemptTimeoutMs: 30 }) })).resolves.toBe('from b');
    expect(calls).toEqual(['a#1', 'b#2']);
    expect(() => seen[0].commit()).toThrow(AttemptTimeoutError);
  });

  it('answers 504 when the last attempt timed out', async () => {
    const { run } = createRun({ a: [hang] });
    await expect(run({ targets: [a], policy: makePolicy({ attemptTimeoutMs: 20 }) })).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
  });

  it('lets one deadline cover every attempt', async () => {
    const { run, calls } = createRun({ a: [hang], b: [hang], c: [hang] });
    const started = Date.now();
    const result = run({ targets: [a, b, c], policy: makePolicy({ attemptTimeoutMs: 100 }), deadline: started + 150 });
    await expect(result).rejects.toMatchObject({ status: 504 });
    expect(Date.now() - started).toBeLessThan(400);
    expect(calls).toEqual(['a#1', 'b#2']);
  });

  it('starts no attempt after one the deadline timed out, even when the clock reads it a moment early', async () => {
    const { run, calls } = createRun({ a: [hang], b: [hang], c: [hang] });
    const deadline = 1_000_000;
    // a's budget is its attempt timeout; b's is the 5 ms left; once b timed out the clock still reads 1 ms left.
    const readings = [deadline - 200, deadline - 5, deadline - 1];
    const result = run({ targets: [a, b, c], policy: makePolicy({ attemptTimeoutMs: 20 }), deadline, now: () => readings.shift() ?? deadline - 1 });
    await expect(result).rejects.toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(calls).toEqual(['a#1', 'b#2']);
  });

  it('stops at once when the client leaves, during an attempt or a backoff wait', async () => {
    const client = new AbortController();
    const leave: Behaviour = async (context) => {
      client.abort(new Error('client left'));
      return hang(context);
    };
    const first = createRun({ a: [leave], b: [ok('from b')] });
    const error = (await first.run({ targets: [a, b], signal: client.signal }).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 499, code: 'client_closed_request' });
    expect((error.cause as Error).message).toBe('client left');
    expect(first.calls).toEqual(['a#1']);

    const waiting = new AbortController();
    const second = createRun({ a: [fail(503)], b: [ok('from b')] });
    const result = second.run({
      targets: [a, b],
      policy: makePolicy({ retries: 1 }),
      signal: waiting.signal,
      sleep: (ms, signal) => sleep(ms, undefined, { signal }),
      backoff: { baseMs: 10_000, maxMs: 10_000 },
    });
    setTimeout(() => waiting.abort(), 20);
    await expect(result).rejects.toMatchObject({ status: 499, code: 'client_closed_request' });
    expect(second.calls).toEqual(['a#1']);
  });

  it('skips a target failing cooldownAfter times in a row, probes it once after cooldownMs, then trusts it again', async () => {
    const health = createTargetHealth(createMemoryStore());
    const policy = makePolicy({ cooldownAfter: 2, cooldownMs: 100 });
    const { run, calls } = createRun({ a: [fail(500), fail(500), ok('a is back')], b: [ok('from b')] });
    await run({ targets: [a, b], policy, health });
    await run({ targets: [a, b], policy, health });
    expect(calls).toEqual(['a#1', 'b#2', 'a#1', 'b#2']);
    calls.length = 0;
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('from b');
    expect(calls).toEqual(['b#1']);
    await sleep(120);
    calls.length = 0;
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('a is back');
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('a is back');
    expect(calls).toEqual(['a#1 probe', 'a#1']);
  });

  it('puts a target whose probe fails back into cooldown, with a single attempt for the probe', async () => {
    const health = createTargetHealth(createMemoryStore());
    const policy = makePolicy({ retries: 3, cooldownAfter: 1, cooldownMs: 60 });
    const { run, calls } = createRun({ a: [fail(500)], b: [ok('from b')] });
    await run({ targets: [a, b], policy, health });
    await sleep(80);
    calls.length = 0;
    await run({ targets: [a, b], policy, health });
    await run({ targets: [a, b], policy, health });
    expect(calls).toEqual(['a#1 probe', 'b#2', 'b#1']);
  });

  it('does not count client errors towards a cooldown', async () => {
    const health = createTargetHealth(createMemoryStore());
    const policy = makePolicy({ cooldownAfter: 1, cooldownMs: 10_000 });
    const { run, calls } = createRun({ a: [fail(400), ok('fine')] });
    await expect(run({ targets: [a], policy, health })).rejects.toMatchObject({ status: 400 });
    await expect(run({ targets: [a], policy, health })).resolves.toBe('fine');
    expect(calls).toEqual(['a#1', 'a#1']);
  });

  it('answers 503 with Retry-After when every target is cooling down', async () => {
    const health = createTargetHealth(createMemoryStore());
    const policy = makePolicy({ cooldownAfter: 1, cooldownMs: 5000 });
    const { run } = createRun({ a: [fail(500)], b: [fail(502)] });
    await expect(run({ targets: [a, b], policy, health })).rejects.toMatchObject({ status: 502 });
    const error = (await run({ targets: [a, b], policy, health }).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 503, code: 'no_target_available', retryAfter: 5 });
  });
});
