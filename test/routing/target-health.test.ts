import { describe, expect, it } from 'vitest';
import type { RoutingPolicy, TargetEntry } from '../../src/config/types.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { StoreUnavailableError, type LimitStore } from '../../src/limits/store.ts';
import { createTargetHealth, getTargetId } from '../../src/routing/target-health.ts';

const policy: RoutingPolicy = { retries: 0, fallbackOn: [], cooldownAfter: 1, cooldownMs: 10_000 };

describe('createTargetHealth', () => {
  it('keeps one cooldown per vendor and upstream model, whichever model lists it', async () => {
    const health = createTargetHealth(createMemoryStore());
    const fromOneModel: TargetEntry = { vendor: 'v', upstream: 'u', weight: 3 };
    const fromAnother: TargetEntry = { vendor: 'v', upstream: 'u', weight: 1 };
    await health.reportFailure(fromOneModel, policy);
    expect((await health.check(fromAnother, policy)).state).toBe('cooling');
    expect((await health.check({ vendor: 'v', upstream: 'other', weight: 1 }, policy)).state).toBe('ready');
    expect(getTargetId(fromOneModel)).toBe('v/u');
  });

  it('treats every target as ready while the store is unreachable', async () => {
    const down = async (): Promise<never> => {
      throw new StoreUnavailableError(new Error('down'));
    };
    const broken: LimitStore = { ...createMemoryStore(), checkTarget: down, failTarget: down, clearTarget: down };
    const health = createTargetHealth(broken);
    const target: TargetEntry = { vendor: 'v', upstream: 'u', weight: 1 };
    await expect(health.reportFailure(target, policy)).resolves.toBeUndefined();
    expect(health.reportSuccess(target)).toBeUndefined();
    expect(await health.check(target, policy)).toEqual({ state: 'ready', failures: 0, retryInMs: 0 });
  });
});
