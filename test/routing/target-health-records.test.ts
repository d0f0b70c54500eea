import { describe, expect, it } from 'vitest';
import type { RoutingPolicy, TargetEntry } from '../../src/config/types.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { createTargetHealth } from '../../src/routing/target-health.ts';

const target: TargetEntry = { vendor: 'v', upstream: 'u', weight: 1 };
const policy: RoutingPolicy = { retries: 0, fallbackOn: [], cooldownAfter: 2, cooldownMs: 5000 };

describe('target health records', () => {
  it('counts failures in a row and cools the target at cooldownAfter, for cooldownMs', async () => {
    let time = 1_000_000;
    const health = createTargetHealth(createMemoryStore({ now: () => time }));
    await health.reportFailure(target, policy);
    expect(await health.check(target, policy)).toEqual({ state: 'ready', failures: 1, retryInMs: 0 });
    await health.reportFailure(target, policy);
    expect(await health.check(target, policy)).toEqual({ state: 'cooling', failures: 2, retryInMs: 5000 });
    time += 5000;
    // The cooldown is over: one probe, leased for cooldownMs.
    expect(await health.check(target, policy)).toEqual({ state: 'probe', failures: 2, retryInMs: 0 });
    expect(await health.check(target, policy)).toEqual({ state: 'cooling', failures: 2, retryInMs: 5000 });
  });

  it('a success clears the record: the failures in a row start again from 0', async () => {
    const health = createTargetHealth(createMemoryStore());
    await health.reportFailure(target, policy);
    health.reportSuccess(target);
    await Promise.resolve();
    expect(await health.check(target, policy)).toEqual({ state: 'ready', failures: 0, retryInMs: 0 });
    await health.reportFailure(target, policy);
    expect((await health.check(target, policy)).state).toBe('ready');
  });
});
