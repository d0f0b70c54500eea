import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/images/bounded.ts';

describe('mapBounded', () => {
  it('answers results in item order whatever order they finish in', async () => {
    const delays = [30, 5, 15, 1];
    const results = await mapBounded(delays, 4, new AbortController().signal, async (ms, i) => {
      await sleep(ms);
      return i;
    });
    expect(results).toEqual([0, 1, 2, 3]);
  });

  it('never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    await mapBounded([1, 2, 3, 4, 5, 6, 7], 3, new AbortController().signal, async () => {
      peak = Math.max(peak, ++running);
      await sleep(5);
      running--;
    });
    expect(peak).toBe(3);
  });

  it('fails with the first failure, aborts the shared signal and starts no queued item', async () => {
    const started: number[] = [];
    let sawAbort = false;
    const run = mapBounded([0, 1, 2, 3], 2, new AbortController().signal, async (i, _index, signal) => {
      started.push(i);
      if (i === 0) throw new Error('part 0 failed');
      await sleep(20);
      sawAbort = signal.aborted;
    });
    await expect(run).rejects.toThrow('part 0 failed');
    await sleep(40);
    expect(sawAbort).toBe(true);
    expect(started).toEqual([0, 1]);
  });

  it('stops when the request’s signal aborts', async () => {
    const controller = new AbortController();
    const run = mapBounded([0, 1, 2], 1, controller.signal, async () => {
      controller.abort();
    });
    await expect(run).rejects.toMatchObject({ status: 499 });
  });
});
