import { describe, expect, it } from 'vitest';
import type { TargetEntry } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { createTargetHealth } from '../../src/routing/target-health.ts';
import { createScriptedRun, fail, makePolicy, ok } from './scripted-attempts.ts';

const a: TargetEntry = { vendor: 'a', upstream: 'model-a', weight: 1 };
const b: TargetEntry = { vendor: 'b', upstream: 'model-b', weight: 1 };

describe('failure counts of a target', () => {
  it('a success resets the count: failure, success, failure does not cool down with cooldown_after 2', async () => {
    const health = createTargetHealth(createMemoryStore());
    const policy = makePolicy({ cooldownAfter: 2, cooldownMs: 60_000 });
    const { run, calls } = createScriptedRun({ 'a/model-a': [fail(500), ok('a ok'), fail(500), ok('a again')], 'b/model-b': [ok('from b')] });
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('from b');
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('a ok');
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('from b');
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('a again');
    expect(calls).toEqual(['a/model-a#1', 'b/model-b#2', 'a/model-a#1', 'a/model-a#1', 'b/model-b#2', 'a/model-a#1']);
  });

  it('two failures in a row do cool it down with cooldown_after 2 (the control case)', async () => {
    const health = createTargetHealth(createMemoryStore());
    const policy = makePolicy({ cooldownAfter: 2, cooldownMs: 60_000 });
    const { run, calls } = createScriptedRun({ 'a/model-a': [fail(500), fail(502), ok('a ok')], 'b/model-b': [ok('from b')] });
    await run({ targets: [a, b], policy, health });
    await run({ targets: [a, b], policy, health });
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('from b');
    expect(calls.at(-1)).toBe('b/model-b#1');
  });

  it('retries of one request count as failures in a row', async () => {
    const health = createTargetHealth(createMemoryStore());
    const policy = makePolicy({ retries: 1, cooldownAfter: 2, cooldownMs: 60_000 });
    const { run, calls } = createScriptedRun({ 'a/model-a': [fail(503), fail(503), ok('a ok')], 'b/model-b': [ok('from b')] });
    await run({ targets: [a, b], policy, health });
    calls.length = 0;
    await expect(run({ targets: [a, b], policy, health })).resolves.toBe('from b');
    expect(calls).toEqual(['b/model-b#1']);
  });

  it('without cooldown_after nothing is tracked: a target failing every time is still tried', async () => {
    const health = createTargetHealth(createMemoryStore());
    const { run, calls } = createScriptedRun({ 'a/model-a': [fail(500)], 'b/model-b': [ok('from b')] });
    for (let i = 0; i < 3; i++) await run({ targets: [a, b], policy: makePolicy({ cooldownMs: 60_000 }), health });
    expect(calls.filter((call) => call.startsWith('a/'))).toHaveLength(3);
  });
});

describe('when no target can be tried', () => {
  it('Retry-After is the soonest cooldown end of the cooling targets, at least one second', async () => {
    const store = createMemoryStore();
    const health = createTargetHealth(store);
    await store.failTarget('a/model-a', 1, 7_000);
    await store.failTarget('b/model-b', 1, 200);
    const { run } = createScriptedRun({});
    const error = await run({ targets: [a, b], policy: makePolicy({ cooldownAfter: 1, cooldownMs: 7_000 }), health }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'no_target_available', retryAfter: 1 });
    expect((error as Error).message).toBe('Every target of this model is cooling down after repeated failures; try again later.');
  });

  it('a model with no target answers 503 saying so, without Retry-After', async () => {
    const { run } = createScriptedRun({});
    const error = await run({ targets: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'no_target_available', retryAfter: undefined, message: 'The model has no target to serve it.' });
  });

  it('a deadline already past answers 504 deadline_exceeded before any call', async () => {
    const { run, calls } = createScriptedRun({ 'a/model-a': [ok('never')] });
    const error = await run({ targets: [a], deadline: Date.now() - 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504, code: 'deadline_exceeded' });
    expect(calls).toEqual([]);
  });

  it('a deadline passed after a failure answers that failure, not a deadline error', async () => {
    let time = 1_000;
    const slowFailure = fail(502);
    const { run, calls } = createScriptedRun({
      'a/model-a': [(context) => ((time += 5_000), slowFailure(context))],
      'b/model-b': [ok('too late')],
    });
    const error = await run({ targets: [a, b], now: () => time, deadline: 3_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, message: 'vendor said 502' });
    expect(calls).toEqual(['a/model-a#1']);
  });

  it('a client gone before the first attempt is 499 client_closed_request, or the GatewayError it was aborted with', async () => {
    const { run, calls } = createScriptedRun({ 'a/model-a': [ok('never')] });
    const gone = new AbortController();
    gone.abort(new Error('left'));
    await expect(run({ targets: [a], signal: gone.signal })).rejects.toMatchObject({ status: 499, code: 'client_closed_request' });
    const shutdown = new AbortController();
    const reason = new GatewayError(503, 'shutting_down', 'bye');
    shutdown.abort(reason);
    await expect(run({ targets: [a], signal: shutdown.signal })).rejects.toBe(reason);
    expect(calls).toEqual([]);
  });
});
