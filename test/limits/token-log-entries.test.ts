import { describe, expect, it } from 'vitest';
import { BUDGET_HEADER, formatUsd, toNano } from '../../src/limits/budget-period.ts';
import { addEntry, readLog, settleEntry, type TokenLog } from '../../src/limits/token-log.ts';

describe('a token log of the memory store', () => {
  it('forgets a key whose every entry has left its window', () => {
    const logs = new Map<string, TokenLog>();
    addEntry(logs, 'k', undefined, 40, 1000);
    expect(readLog(logs, 'k', 999)?.used).toBe(40);
    expect(readLog(logs, 'k', 1000)).toBeUndefined();
    expect(logs.has('k')).toBe(false);
  });

  it('counts an entry added again under its name once, with its new tokens', () => {
    const logs = new Map<string, TokenLog>();
    addEntry(logs, 'k', 'reservation', 100, 5000);
    addEntry(logs, 'k', 'reservation', 30, 5000);
    expect(readLog(logs, 'k', 0)?.used).toBe(30);
  });

  it('adds nothing when a settled count equals its reservation after that reservation left its window', () => {
    const logs = new Map<string, TokenLog>();
    addEntry(logs, 'k', 'reservation', 50, 1000);
    settleEntry(logs, 'k', 'reservation', 50, 50, 2000, 60_000);
    expect(readLog(logs, 'k', 2000)).toBeUndefined();
    settleEntry(logs, 'k', 'gone', 50, 80, 2000, 60_000);
    expect(readLog(logs, 'k', 2000)).toMatchObject({ used: 30, last: 62_000 });
  });
});

describe('a busy token log', () => {
  it('lets entries leave oldest first through its queue, and keeps the queue no longer than twice what is live', () => {
    const logs = new Map<string, TokenLog>();
    for (let i = 0; i < 10_000; i++) {
      readLog(logs, 'k', i);
      addEntry(logs, 'k', undefined, 1, i + 100);
    }
    const log = readLog(logs, 'k', 10_000)!;
    expect(log.used).toBe(99);
    expect(log.entries.size).toBe(99);
    expect(log.order.length - log.head).toBe(99);
    expect(log.order.length).toBeLessThanOrEqual(2 * 1024 + 200);
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
