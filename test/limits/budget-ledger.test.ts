import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createBudgetLedger } from '../../src/limits/budget-ledger.ts';
import { getBudgetPeriod } from '../../src/limits/budget-period.ts';

const dir = mkdtempSync(join(tmpdir(), 'budget-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = getBudgetPeriod({ usd: 1, period: 'day' }, Date.now());

describe('the budget ledger', () => {
  it('keeps counters across a restart through its file', async () => {
    const file = join(dir, 'restart.json');
    const first = createBudgetLedger(file);
    expect(first.add('team', DAY, 700)).toBe(700);
    expect(first.add('team', DAY, -200)).toBe(500);
    await first.close();
    const second = createBudgetLedger(file);
    expect(second.read('team', DAY)).toBe(500);
    expect(second.read('other', DAY)).toBe(0);
    await second.close();
  });

  it('writes the file shortly after a change, before any close', async () => {
    const file = join(dir, 'soon.json');
    const ledger = createBudgetLedger(file);
    ledger.add('team', DAY, 42);
    await sleep(300);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([['team', DAY.period, 42, expect.any(Number)]]);
    await ledger.close();
  });

  it('drops the counters of periods that are over, and never counts below zero', async () => {
    const file = join(dir, 'old.json');
    writeFileSync(file, JSON.stringify([['team', 'd2000-01-01', 900, Date.now() - 1]]));
    const ledger = createBudgetLedger(file);
    expect(ledger.read('team', { ...DAY, period: 'd2000-01-01' })).toBe(0);
    expect(ledger.add('team', DAY, -5)).toBe(0);
    await ledger.close();
  });

  it('refuses to start from a file that is not a budget file, instead of resetting budgets', () => {
    const file = join(dir, 'bad.json');
    for (const text of ['{', '{"a":1}', '[["team","d",-1,0]]', '[["team","d",1.5,0]]']) {
      writeFileSync(file, text);
      expect(() => createBudgetLedger(file)).toThrow(/not a budget file/);
    }
  });

  it('names UTC days and months, kept until a day after they end', () => {
    const time = Date.UTC(2026, 0, 31, 23, 0);
    expect(getBudgetPeriod({ usd: 2, period: 'day' }, time)).toEqual({ period: 'd2026-01-31', limitNano: 2e9, ttlMs: 3_600_000 + 86_400_000 });
    expect(getBudgetPeriod({ usd: 0.5, period: 'month' }, time)).toEqual({ period: 'm2026-01', limitNano: 5e8, ttlMs: 3_600_000 + 86_400_000 });
  });
});
