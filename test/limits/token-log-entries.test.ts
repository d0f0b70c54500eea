import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUDGET_HEADER, formatUsd, toNano } from '../../src/limits/budget-period.ts';
import { addEntry, readLog, toLogState, TokenLog } from '../../src/limits/token-log.ts';

describe('a token log of the memory store', () => {
  it('forgets a key whose every entry has left its window', () => {
    const logs = new Map<string, TokenLog>();
    addEntry(logs, 'k', 40, 1000);
    expect(readLog(logs, 'k', 999)?.used).toBe(40);
    expect(readLog(logs, 'k', 1000)).toBeUndefined();
    expect(logs.has('k')).toBe(false);
    expect(readLog(logs, 'never', 0)).toBeUndefined();
  });

  it('counts entries ending in the same millisecond in one run, and each other end in a run of its own', () => {
    const log = new TokenLog();
    expect([log.add(5, 1000), log.add(7, 1000), log.add(1, 1001)]).toEqual([0, 0, 1]);
    expect([log.runs, log.used, log.oldestEnd, log.last]).toEqual([2, 13, 1000, 1001]);
    log.expire(1000);
    expect([log.runs, log.used, log.oldestEnd]).toEqual([1, 1, 1001]);
  });

  it('keeps its newest end when an entry ending earlier is added', () => {
    const log = new TokenLog();
    log.add(1, 5000);
    log.add(1, 4000);
    expect(log.last).toBe(5000);
  });

  it('replaces a reservation while its run is in the window, and refuses once it has left', () => {
    const log = new TokenLog();
    const first = log.add(100, 1000);
    const second = log.add(50, 2000);
    expect(log.replace(second, 50, 20)).toBe(true);
    expect(log.used).toBe(120);
    log.expire(1000);
    expect([log.holds(first), log.holds(second), log.holds(second + 1)]).toEqual([false, true, false]);
    expect(log.replace(first, 100, 0)).toBe(false);
    expect(log.used).toBe(20);
    log.expire(2000);
    expect(log.used).toBe(0);
  });

  it('grows its ring past 16 runs around a wrapped start, keeping every run in order', () => {
    const log = new TokenLog();
    for (let i = 0; i < 10; i++) log.add(1, 100 + i);
    log.expire(105);
    for (let i = 10; i < 60; i++) log.add(i, 100 + i);
    expect(log.runs).toBe(54);
    for (let i = 6; i < 60; i++) {
      expect(log.oldestEnd).toBe(100 + i);
      log.expire(100 + i);
    }
    expect([log.runs, log.used]).toEqual([0, 0]);
  });

  it('grows a full ring whose start moved past the middle before it filled, losing no run', () => {
    const log = new TokenLog();
    for (let i = 1; i <= 10; i++) log.add(i, i);
    log.expire(8);
    for (let i = 11; i <= 30; i++) log.add(i, i);
    expect([log.runs, log.used]).toEqual([22, 429]);
    for (let i = 9; i <= 30; i++) {
      expect(log.oldestEnd).toBe(i);
      log.expire(i);
    }
    expect([log.runs, log.used]).toEqual([0, 0]);
  });

  it('starts a run of its own for an entry added after every run has left, even one ending when the last did', () => {
    const log = new TokenLog();
    log.add(5, 100);
    log.expire(100);
    const run = log.add(7, 100);
    expect([run, log.runs, log.used, log.holds(run), log.oldestEnd]).toEqual([1, 1, 7, true, 100]);
    expect(log.replace(run, 7, 2)).toBe(true);
    log.expire(100);
    expect([log.runs, log.used]).toEqual([0, 0]);
  });

  it('as a window state: back to the full limit when the newest entry leaves, admitting again when the oldest does', () => {
    const log = new TokenLog();
    log.add(30, 1500);
    log.add(90, 3000);
    expect(toLogState(true, 200, log, 1000)).toEqual({ allowed: true, limit: 200, remaining: 80, resetSeconds: 2 });
    expect(toLogState(false, 100, log, 1000)).toEqual({ allowed: false, limit: 100, remaining: 0, resetSeconds: 0.5 });
    expect(toLogState(true, 100, undefined, 1000)).toEqual({ allowed: true, limit: 100, remaining: 100, resetSeconds: 0 });
  });
});

/** One step on a log: add tokens ending `end` ms after the clock, replace an earlier entry, or move the clock. */
type Step = { add: number; end: number } | { replace: number; tokens: number } | { wait: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ add: fc.integer({ min: 0, max: 1000 }), end: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ replace: fc.nat(), tokens: fc.integer({ min: 0, max: 1000 }) }),
  fc.record({ wait: fc.integer({ min: 0, max: 4 }) }),
);

describe('a token log against a list of every entry', () => {
  it('counts exactly the entries whose end is later than now, and replaces only entries still counted', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const log = new TokenLog();
        const entries: { tokens: number; end: number; run: number }[] = [];
        let time = 0;
        // Ends never go back in time (every entry of a key has the same window length).
        let newestEnd = 0;
        for (const s of steps) {
          if ('add' in s) {
            const end = Math.max(newestEnd, time + 1 + s.end);
            newestEnd = end;
            entries.push({ tokens: s.add, end, run: log.add(s.add, end) });
          } else if ('replace' in s) {
            if (entries.length === 0) continue;
            const entry = entries[s.replace % entries.length];
            log.expire(time);
            const live = entry.end > time;
            expect(log.replace(entry.run, entry.tokens, s.tokens)).toBe(live);
            if (live) entry.tokens = s.tokens;
          } else time += s.wait;
          log.expire(time);
          const live = entries.filter((e) => e.end > time);
          expect(log.used).toBe(live.reduce((sum, e) => sum + e.tokens, 0));
          expect(log.runs).toBe(new Set(live.map((e) => e.end)).size);
          if (live.length > 0) expect(log.oldestEnd).toBe(Math.min(...live.map((e) => e.end)));
        }
      }),
    );
  });
});

describe('budget amounts', () => {
  it('counts no nano-USD for a cost that is zero, negative or not a number', () => {
    expect([toNano(0), toNano(-0.25), toNano(Number.NaN), toNano(0.000000001), toNano(1.5)]).toEqual([0, 0, 0, 1, 1_500_000_000]);
    expect(formatUsd(-5)).toBe('0.000000');
  });

  it('names the remaining-budget header x-gateway-budget-remaining-usd', () => {
    expect(BUDGET_HEADER).toBe('x-gateway-budget-remaining-usd');
  });
});
