import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/limits/memory-store.ts';

/** A window shortened to 200 ms of a clock the test moves: no wall-clock time passes. */
const WINDOW = 200;

/** The largest total of `amount` over the events in any interval [t, t + WINDOW) (events sorted by time). */
function getBusiestWindow(events: { time: number; amount: number }[]): number {
  let busiest = 0;
  let sum = 0;
  let start = 0;
  for (const event of events) {
    sum += event.amount;
    while (events[start].time <= event.time - WINDOW) sum -= events[start++].amount;
    busiest = Math.max(busiest, sum);
  }
  return busiest;
}

describe('memory store windows at their edges', () => {
  it('admits at most rpm requests in any window, whenever they arrive (no edge lets twice the limit through)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 120 }), async (rpm, gaps) => {
        let time = 1_000_000;
        const store = createMemoryStore({ now: () => time });
        const admitted: { time: number; amount: number }[] = [];
        for (const gap of gaps) {
          time += gap;
          if ((await store.admit({ id: 'k', rpm, windowMs: WINDOW })).verdict === 'ok') admitted.push({ time, amount: 1 });
        }
        expect(getBusiestWindow(admitted)).toBeLessThanOrEqual(rpm);
        // And it does admit: a window with room never refuses.
        expect(admitted.length).toBeGreaterThan(0);
      }),
    );
  });

  it('reserves at most tpm plus one reservation in any window, settled counts included', async () => {
    const request = fc.record({ gap: fc.integer({ min: 0, max: 60 }), tokens: fc.integer({ min: 0, max: 50 }), used: fc.integer({ min: 0, max: 50 }) });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 200 }), fc.array(request, { minLength: 1, maxLength: 120 }), async (tpm, requests) => {
        let time = 1_000_000;
        const store = createMemoryStore({ now: () => time });
        const counted: { time: number; amount: number }[] = [];
        let entry = 0;
        for (const r of requests) {
          time += r.gap;
          const name = `e${++entry}`;
          const result = await store.reserve({ id: 'k', entry: name, tpm, tokens: r.tokens, windowMs: WINDOW, costNano: 0 });
          if (result.verdict !== 'ok') continue;
          // Settled at once with at most what it reserved: its entry keeps its time and takes the real count.
          const used = Math.min(r.used, r.tokens);
          await store.settle({ id: 'k', entry: name, tpm, reservedTokens: r.tokens, tokens: used, windowMs: WINDOW, reservedNano: 0, costNano: 0 });
          counted.push({ time, amount: used });
        }
        expect(getBusiestWindow(counted)).toBeLessThanOrEqual(tpm + 50);
      }),
    );
  });

  it('admits again exactly when the oldest request leaves its window', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: WINDOW - 1 }), async (rpm, spread) => {
        let time = 1_000_000;
        const store = createMemoryStore({ now: () => time });
        const first = time;
        for (let i = 0; i < rpm; i++) {
          expect((await store.admit({ id: 'k', rpm, windowMs: WINDOW })).verdict).toBe('ok');
          time = first + Math.floor((spread * (i + 1)) / rpm);
        }
        time = first + WINDOW - 1;
        const refused = await store.admit({ id: 'k', rpm, windowMs: WINDOW });
        expect(refused.verdict).toBe('rpm');
        expect(refused.requests!.resetSeconds).toBe(0.001);
        time = first + WINDOW;
        expect((await store.admit({ id: 'k', rpm, windowMs: WINDOW })).verdict).toBe('ok');
      }),
    );
  });
});
