import { describe, expect, it } from 'vitest';
import type { RoutingPolicy, TargetEntry } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import type { TargetStatus } from '../../src/limits/store.ts';
import { AttemptTimeoutError } from '../../src/routing/run-one-attempt.ts';
import type { TargetHealth } from '../../src/routing/target-health.ts';
import { createScriptedRun, fail, makePolicy, ok } from './scripted-attempts.ts';

const a: TargetEntry = { vendor: 'a', upstream: 'model-a', weight: 1 };
const b: TargetEntry = { vendor: 'b', upstream: 'model-b', weight: 1 };

/** A TargetHealth that answers `status` and records every call. */
function createRecordingHealth(status: TargetStatus = { state: 'ready', failures: 0, retryInMs: 0 }) {
  const calls: string[] = [];
  const health: TargetHealth = {
    async check(target: TargetEntry, _policy: RoutingPolicy) {
      calls.push(`check ${target.vendor}`);
      return status;
    },
    async reportFailure(target: TargetEntry) {
      calls.push(`failure ${target.vendor}`);
    },
    reportSuccess(target: TargetEntry) {
      calls.push(`success ${target.vendor}`);
    },
  };
  return { health, calls };
}

describe('target health bookkeeping', () => {
  it('a healthy target that answers well writes nothing to the health store', async () => {
    const { health, calls } = createRecordingHealth();
    const { run } = createScriptedRun({ 'a/model-a': [ok('fine')] });
    await expect(run({ targets: [a], policy: makePolicy({ cooldownAfter: 2, cooldownMs: 1000 }), health })).resolves.toBe('fine');
    expect(calls).toEqual(['check a']);
  });

  it('a target with earlier failures that answers well is reported healthy again', async () => {
    const { health, calls } = createRecordingHealth({ state: 'ready', failures: 1, retryInMs: 0 });
    const { run } = createScriptedRun({ 'a/model-a': [ok('fine')] });
    await run({ targets: [a], policy: makePolicy({ cooldownAfter: 2, cooldownMs: 1000 }), health });
    expect(calls).toEqual(['check a', 'success a']);
  });

  it('without cooldown_after the health store is never asked', async () => {
    const { health, calls } = createRecordingHealth();
    const { run } = createScriptedRun({ 'a/model-a': [fail(500)], 'b/model-b': [ok('from b')] });
    await expect(run({ targets: [a, b], policy: makePolicy({ cooldownMs: 1000 }), health })).resolves.toBe('from b');
    expect(calls).toEqual([]);
  });

  it('cooldown_after without a health store tries every target as usual', async () => {
    const { run, calls } = createScriptedRun({ 'a/model-a': [fail(500)], 'b/model-b': [ok('from b')] });
    await expect(run({ targets: [a, b], policy: makePolicy({ cooldownAfter: 1, cooldownMs: 1000 }) })).resolves.toBe('from b');
    expect(calls).toEqual(['a/model-a#1', 'b/model-b#2']);
  });
});

describe('waits between attempts', () => {
  it('falls back without waiting once the retries of a target are spent', async () => {
    const { run, sleeps } = createScriptedRun({ 'a/model-a': [fail(503), fail(503)], 'b/model-b': [ok('from b')] });
    await expect(run({ targets: [a, b] })).resolves.toBe('from b');
    await expect(run({ targets: [a, b], policy: makePolicy({ retries: 1 }) })).resolves.toBe('from b');
    expect(sleeps).toEqual([50]);
  });

  it('waits with the built-in timer when no sleep is given', async () => {
    const { run, calls } = createScriptedRun({ 'a/model-a': [fail(503), ok('second try')] });
    await expect(run({ targets: [a], policy: makePolicy({ retries: 1 }), sleep: undefined, backoff: { baseMs: 1, maxMs: 1 } })).resolves.toBe('second try');
    expect(calls).toEqual(['a/model-a#1', 'a/model-a#2']);
  });

  it('stops the built-in wait at once when the client leaves', async () => {
    const client = new AbortController();
    const { run } = createScriptedRun({ 'a/model-a': [fail(503), ok('never')] });
    const started = Date.now();
    const result = run({ targets: [a], policy: makePolicy({ retries: 1 }), signal: client.signal, sleep: undefined, random: () => 0.99, backoff: { baseMs: 10_000, maxMs: 10_000 } });
    setTimeout(() => client.abort(), 20);
    await expect(result).rejects.toMatchObject({ status: 499 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('the errors of runAttempts', () => {
  it('a deadline reached exactly is a deadline error before any call', async () => {
    const { run, calls } = createScriptedRun({ 'a/model-a': [ok('never')] });
    const error = await run({ targets: [a], now: () => 5_000, deadline: 5_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504, code: 'deadline_exceeded', message: 'The request ran out of time before a vendor could be tried.' });
    expect(calls).toEqual([]);
  });

  it('a last attempt that timed out is a 504 upstream_timeout caused by the attempt timeout', async () => {
    const { run } = createScriptedRun({ 'a/model-a': [(context) => new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason)))] });
    const error = (await run({ targets: [a], policy: makePolicy({ attemptTimeoutMs: 20 }) }).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 504, code: 'upstream_timeout', message: 'The vendor did not answer in time.' });
    expect(error.cause).toBeInstanceOf(AttemptTimeoutError);
  });

  it('a client gone is a 499 saying so, caused by the abort reason', async () => {
    const client = new AbortController();
    const reason = new Error('client left');
    client.abort(reason);
    const { run } = createScriptedRun({ 'a/model-a': [ok('never')] });
    const error = (await run({ targets: [a], signal: client.signal }).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 499, code: 'client_closed_request', message: 'The client closed the request.' });
    expect(error.cause).toBe(reason);
  });
});
