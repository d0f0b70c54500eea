import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createBudgetLedger } from '../../src/limits/budget-ledger.ts';

const dir = mkdtempSync(join(tmpdir(), 'budget-ledger-timers-'));
afterEach(() => vi.useRealTimers());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PERIOD = { period: 'd1', limitNano: 1e9, ttlMs: 9000 };
const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
/** Waits (on real time) until the file holds `text`. */
async function waitForText(file: string, text: string): Promise<void> {
  for (let i = 0; i < 400 && !(existsSync(file) && readFileSync(file, 'utf8') === text); i++) await sleep(5);
  expect(readFileSync(file, 'utf8')).toBe(text);
}

/** When the ledger writes its file: one pending write at a time, none once closed (fake setTimeout, real files). */
describe('the budget ledger write timer', () => {
  it('schedules one write for the changes made before it fires', async () => {
    fakeTimers();
    const ledger = createBudgetLedger(join(dir, 'together.json'), () => 0);
    ledger.add('a', PERIOD, 1);
    ledger.add('b', PERIOD, 2);
    expect(vi.getTimerCount()).toBe(1);
    await ledger.close();
  });

  it('leaves no timer once closed, and schedules none for a change after', async () => {
    fakeTimers();
    const ledger = createBudgetLedger(join(dir, 'closed.json'), () => 0);
    ledger.add('a', PERIOD, 1);
    await ledger.close();
    expect(vi.getTimerCount()).toBe(0);
    ledger.add('a', PERIOD, 1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('schedules nothing after a close that found no write pending', async () => {
    fakeTimers();
    const file = join(dir, 'idle.json');
    const ledger = createBudgetLedger(file, () => 0);
    ledger.add('a', PERIOD, 1);
    vi.advanceTimersByTime(50);
    await waitForText(file, '[["a","d1",1,9000]]\n');
    await ledger.close();
    ledger.add('a', PERIOD, 1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('writes a change made during a write after that write, never two at once', async () => {
    fakeTimers();
    const file = join(dir, 'during.json');
    const ledger = createBudgetLedger(file, () => 0);
    ledger.add('a', PERIOD, 1);
    vi.advanceTimersByTime(50);
    // The first write is under way (real file I/O): the next change waits for it.
    ledger.add('a', PERIOD, 1);
    vi.advanceTimersByTime(50);
    expect(vi.getTimerCount()).toBe(1);
    await waitForText(file, '[["a","d1",1,9000]]\n');
    vi.advanceTimersByTime(50);
    await waitForText(file, '[["a","d1",2,9000]]\n');
    await ledger.close();
  });

  it('lets a write under way finish before its last write on close, so the file ends with the last counts', async () => {
    fakeTimers();
    const file = join(dir, 'last.json');
    const ledger = createBudgetLedger(file, () => 0);
    ledger.add('a', PERIOD, 1);
    vi.advanceTimersByTime(50);
    ledger.add('a', PERIOD, 1);
    await ledger.close();
    expect(readFileSync(file, 'utf8')).toBe('[["a","d1",2,9000]]\n');
    // Nothing written behind it either.
    await sleep(100);
    expect(readFileSync(file, 'utf8')).toBe('[["a","d1",2,9000]]\n');
  });
});
