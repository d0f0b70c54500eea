import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBudgetLedger } from '../../src/limits/budget-ledger.ts';

const dir = mkdtempSync(join(tmpdir(), 'budget-file-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LATER = Date.now() + 86_400_000;
const PERIOD = { period: 'd2099-01-01', limitNano: 1e9, ttlMs: 86_400_000 };

/** Writes `rows` as a budget file and opens a ledger on it. */
function openWith(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return () => createBudgetLedger(file);
}

describe('a budget file, row by row', () => {
  it.each([
    ['a row that is not a list', [{ key: 'team' }]],
    ['a row of three fields', [['team', 'd2099-01-01', 5]]],
    ['a row of five fields', [['team', 'd2099-01-01', 5, LATER, 0]]],
    ['a key that is not a string', [[7, 'd2099-01-01', 5, LATER]]],
    ['a period that is not a string', [['team', 20990101, 5, LATER]]],
    ['a count that is not a whole number', [['team', 'd2099-01-01', 0.5, LATER]]],
    ['a count below zero', [['team', 'd2099-01-01', -1, LATER]]],
    ['a count beyond the safe integers', [['team', 'd2099-01-01', 2 ** 60, LATER]]],
    ['an end that is not a number', [['team', 'd2099-01-01', 5, 'later']]],
    ['one bad row among good ones', [['team', 'd2099-01-01', 5, LATER], ['team', 'd2099-01-01', -5, LATER]]],
  ])('refuses %s, naming the file, instead of resetting budgets', (name, rows) => {
    const file = join(dir, `${name.replaceAll(' ', '-')}.json`);
    expect(openWith(`${name.replaceAll(' ', '-')}.json`, JSON.stringify(rows))).toThrow(`${file}: not a budget file`);
  });

  it('reads a count of zero and the exact counts of every good row', async () => {
    const ledger = openWith('good.json', JSON.stringify([['team', 'd2099-01-01', 0, LATER], ['other', 'd2099-01-01', 12, LATER]]))();
    expect(ledger.read('team', PERIOD)).toBe(0);
    expect(ledger.read('other', PERIOD)).toBe(12);
    await ledger.close();
  });

  it('starts empty from a missing file, but refuses a path it cannot read as a file', async () => {
    const missing = createBudgetLedger(join(dir, 'missing.json'));
    expect(missing.read('team', PERIOD)).toBe(0);
    await missing.close();
    const folder = join(dir, 'a-folder.json');
    mkdirSync(folder);
    expect(() => createBudgetLedger(folder)).toThrow(/EISDIR/);
  });
});
