import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBudgetLedger } from '../../src/limits/budget-ledger.ts';
import { waitFor } from '../helpers/wait-for.ts';

const dir = mkdtempSync(join(tmpdir(), 'budget-ledger-writes-'));
const warnings: (Error | string)[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);
beforeAll(() => process.on('warning', onWarning));
afterEach(() => void (warnings.length = 0));
afterAll(() => {
  process.off('warning', onWarning);
  rmSync(dir, { recursive: true, force: true });
});

/** A period of `ttlMs` (the ledger reads only its name and how long its counter lives). */
const period = (name: string, ttlMs: number) => ({ period: name, limitNano: 1e9, ttlMs });
const readText = (file: string) => readFileSync(file, 'utf8');

describe('the budget ledger file, write by write', () => {
  it('drops a row whose period ends exactly at start-up', async () => {
    const file = join(dir, 'ends-now.json');
    writeFileSync(file, JSON.stringify([['team', 'd1', 5, 1000], ['other', 'd1', 7, 1001]]));
    const ledger = createBudgetLedger(file, () => 1000);
    expect([ledger.read('team', period('d1', 1)), ledger.read('other', period('d1', 1))]).toEqual([0, 7]);
    await ledger.close();
  });

  it('writes one JSON line of the live counters, leaving out (and forgetting) those whose period ended', async () => {
    const file = join(dir, 'ended.json');
    let time = 0;
    const ledger = createBudgetLedger(file, () => time);
    ledger.add('short', period('d1', 1000), 3);
    ledger.add('long', period('d1', 5000), 4);
    time = 1000;
    await ledger.close();
    expect(readText(file)).toBe('[["long","d1",4,5000]]\n');
    expect(ledger.read('short', period('d1', 1000))).toBe(0);
    expect(ledger.read('long', period('d1', 5000))).toBe(4);
  });

  it('writes every later change too, not only the first', async () => {
    const file = join(dir, 'every.json');
    const ledger = createBudgetLedger(file, () => 0);
    ledger.add('team', period('d1', 9000), 1);
    await waitFor(() => existsSync(file) && readText(file) === '[["team","d1",1,9000]]\n');
    ledger.add('team', period('d1', 9000), 1);
    await waitFor(() => readText(file) === '[["team","d1",2,9000]]\n');
    ledger.add('team', period('d1', 9000), -2);
    await waitFor(() => readText(file) === '[["team","d1",0,9000]]\n');
    await ledger.close();
    expect(warnings).toEqual([]);
  });

  it('writes nothing for a change of zero until it closes', async () => {
    const file = join(dir, 'zero.json');
    const ledger = createBudgetLedger(file, () => 0);
    expect(ledger.add('team', period('d1', 9000), 0)).toBe(0);
    await sleep(300);
    expect(existsSync(file)).toBe(false);
    await ledger.close();
    expect(readText(file)).toBe('[["team","d1",0,9000]]\n');
  });

  it('writes nothing after it closed, and a second close writes nothing again', async () => {
    const file = join(dir, 'closed.json');
    const ledger = createBudgetLedger(file, () => 0);
    ledger.add('team', period('d1', 9000), 5);
    await ledger.close();
    expect(readText(file)).toBe('[["team","d1",5,9000]]\n');
    writeFileSync(file, '[]\n');
    ledger.add('team', period('d1', 9000), 5);
    await sleep(300);
    await ledger.close();
    expect(readText(file)).toBe('[]\n');
  });

  it('keeps counters in memory only, with no file: nothing written, no warning', async () => {
    const ledger = createBudgetLedger(undefined, () => 0);
    expect(ledger.add('team', period('d1', 9000), 5)).toBe(5);
    await sleep(300);
    await expect(ledger.close()).resolves.toBeUndefined();
    expect(warnings).toEqual([]);
    expect(ledger.read('team', period('d1', 9000))).toBe(5);
  });

  it('reports a file it cannot write as a warning naming it, and keeps counting', async () => {
    const file = join(dir, 'no-such-folder', 'budgets.json');
    const ledger = createBudgetLedger(file, () => 0);
    expect(ledger.add('team', period('d1', 9000), 5)).toBe(5);
    await waitFor(() => warnings.length > 0);
    expect(warnings[0]).toMatch(new RegExp(`^budget file ${file} not written: ENOENT`));
    expect(ledger.add('team', period('d1', 9000), 1)).toBe(6);
    await expect(ledger.close()).rejects.toThrow(/ENOENT/);
  });
});
