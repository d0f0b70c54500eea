import { describe, expect, it } from 'vitest';
import { createRestartCounter, defineRestartPolicy } from '../../src/cli/define-restart-policy.ts';

/** How the primary answers a dying worker: later and later restarts, and giving up on a crash loop. */
describe('the worker restart policy', () => {
  it('doubles the delay with each failure of the window, up to the most, and gives up at maxFailures', () => {
    const decide = createRestartCounter({ maxFailures: 6, windowMs: 60_000, firstDelayMs: 250, maxDelayMs: 1000 }, () => 0);
    expect(Array.from({ length: 6 }, () => decide())).toEqual([
      { restart: true, delayMs: 250 },
      { restart: true, delayMs: 500 },
      { restart: true, delayMs: 1000 },
      { restart: true, delayMs: 1000 },
      { restart: true, delayMs: 1000 },
      { restart: false, failures: 6 },
    ]);
  });

  it('forgets failures older than the window: a worker dying now and then is always restarted, promptly', () => {
    let now = 0;
    const decide = createRestartCounter(defineRestartPolicy(2), () => now);
    for (let i = 0; i < 100; i++) {
      expect(decide()).toEqual({ restart: true, delayMs: 250 });
      now += 60_000;
    }
  });

  it('gives up only when every worker failed and then four more failures came within a minute', () => {
    expect(defineRestartPolicy(8)).toMatchObject({ maxFailures: 12, windowMs: 60_000 });
    let now = 0;
    const decide = createRestartCounter(defineRestartPolicy(1), () => (now += 14_000));
    expect([decide(), decide(), decide(), decide(), decide()].map((d) => d.restart)).toEqual([true, true, true, true, false]);
  });
});
