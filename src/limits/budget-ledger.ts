import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { BudgetRequest } from './store.ts';

/** The memory store's budget counters (nano-USD per key and period), optionally kept in a file. */
export interface BudgetLedger {
  /** Nano-USD spent (and reserved) by `id` in the period. */
  read(id: string, budget: BudgetRequest): number;
  /** Adds `deltaNano` (negative to give back; never below 0) and returns the new total. */
  add(id: string, budget: BudgetRequest, deltaNano: number): number;
  /** Stops writing, waits for a write under way, then writes the file one last time. */
  close(): Promise<void>;
}

interface Counter {
  nano: number;
  /** Epoch ms after which the period's counter is dropped. */
  until: number;
}

/** What the file holds: one `[key, period, nano-USD, until]` row per counter. */
type Row = [string, string, number, number];

/** How long after a change the file is written (changes in between are written together). */
const WRITE_DELAY_MS = 50;

/**
 * Creates the ledger. With `file`, counters are read from it at start (a missing file is an empty
 * ledger; an unreadable one throws, so a restart never silently resets budgets) and written back shortly
 * after every change (to a temporary file renamed over it, so a crash never leaves half a file).
 */
export function createBudgetLedger(file?: string, now: () => number = Date.now): BudgetLedger {
  const counters = new Map<string, Counter>();
  for (const [id, period, nano, until] of file ? readRows(file) : []) {
    if (until > now()) counters.set(`${id}\n${period}`, { nano, until });
  }
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let closed = false;

  const toJson = () => {
    const time = now();
    const rows: Row[] = [];
    for (const [name, { nano, until }] of counters) {
      if (until <= time) counters.delete(name);
      else rows.push([...(name.split('\n') as [string, string]), nano, until]);
    }
    return `${JSON.stringify(rows)}\n`;
  };
  const write = () => {
    timer = undefined;
    if (writing || closed) return schedule();
    const temporary = `${file}.${process.pid}.tmp`;
    writing = writeFile(temporary, toJson())
      .then(() => rename(temporary, file!))
      .catch((error) => process.emitWarning(`budget file ${file} not written: ${(error as Error).message}`))
      .finally(() => (writing = undefined));
  };
  function schedule(): void {
    if (!file || closed || timer) return;
    timer = setTimeout(write, WRITE_DELAY_MS);
    timer.unref();
  }

  return {
    read(id, budget) {
      const counter = counters.get(`${id}\n${budget.period}`);
      return counter ? counter.nano : 0;
    },
    add(id, budget, deltaNano) {
      const name = `${id}\n${budget.period}`;
      let counter = counters.get(name);
      if (!counter) counters.set(name, (counter = { nano: 0, until: now() + budget.ttlMs }));
      counter.nano = Math.max(0, counter.nano + deltaNano);
      if (deltaNano !== 0) schedule();
      return counter.nano;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      if (!file) return;
      await writing;
      const temporary = `${file}.${process.pid}.final.tmp`;
      writeFileSync(temporary, toJson());
      renameSync(temporary, file);
    },
  };
}

function readRows(file: string): Row[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    rows = undefined;
  }
  if (!Array.isArray(rows) || !rows.every(isRow)) throw new Error(`${file}: not a budget file (a JSON list of [key, period, nano-USD, until] rows)`);
  return rows;
}

function isRow(row: unknown): row is Row {
  return (
    Array.isArray(row) &&
    row.length === 4 &&
    typeof row[0] === 'string' &&
    typeof row[1] === 'string' &&
    Number.isSafeInteger(row[2]) &&
    row[2] >= 0 &&
    Number.isFinite(row[3])
  );
}
