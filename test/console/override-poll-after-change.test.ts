import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { OverrideStore } from '../../src/console/overrides/create-override-store.ts';
import { OVERRIDE_POLL_MS, startOverrideControl } from '../../src/console/overrides/start-override-control.ts';
import type { Overrides } from '../../src/console/types.ts';

/** A poll that read the stored overrides before this process changed them must not bring the old ones back. */
describe('a change made while a poll is reading', () => {
  it('stays in force: the poll\'s older text is dropped, and the next poll reads the change', async () => {
    vi.useFakeTimers();
    let stored: string | undefined;
    let holdRead: ((text: string | undefined) => void) | undefined;
    let holdNext = false;
    const store: OverrideStore = {
      where: 'test',
      read: () => {
        if (!holdNext) return Promise.resolve(stored);
        holdNext = false;
        const before = stored;
        return new Promise((resolve) => (holdRead = () => resolve(before)));
      },
      write: async (text) => void (stored = text),
    };
    const applied: Overrides[] = [];
    const control = await startOverrideControl(store, pino({ level: 'silent' }), (overrides) => applied.push(overrides));
    try {
      holdNext = true;
      await vi.advanceTimersByTimeAsync(OVERRIDE_POLL_MS);
      expect(holdRead).toBeDefined();
      await control.change('ops', 'team', (overrides) => ({ ...overrides, keys: { team: { disabled: true } } }));
      holdRead!(undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(applied.at(-1)?.keys).toEqual({ team: { disabled: true } });
      expect(control.current().keys).toEqual({ team: { disabled: true } });
      await vi.advanceTimersByTimeAsync(OVERRIDE_POLL_MS);
      expect(applied.at(-1)?.keys).toEqual({ team: { disabled: true } });
    } finally {
      control.close();
      vi.useRealTimers();
    }
  });
});
