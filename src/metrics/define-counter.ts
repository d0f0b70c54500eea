import type { Metric, Registry } from 'prom-client';
import { createCells } from './create-cells.ts';

/** One series of a counter (one combination of label values): a plain number the request path adds to. */
export class CounterCell {
  value = 0;

  constructor(readonly labels: Readonly<Record<string, string>>) {}

  /** Adds `amount` (default 1; ignored unless it is a finite number above 0). */
  inc(amount = 1): void {
    if (amount > 0 && Number.isFinite(amount)) this.value += amount;
  }
}

/** A counter's cells by label values. */
export interface CounterFamily {
  /** The series of these label values (in `labelNames` order), made on first use. */
  getCell(...values: string[]): CounterCell;
}

/**
 * Defines a counter in `registry` whose series the request path adds to directly ({@link CounterCell}), read only
 * when the registry is scraped: prom-client renders it and sums it over `--workers` processes through `get()`.
 */
export function defineCounter<Label extends string>(registry: Registry, options: { name: string; help: string; labelNames: readonly Label[] }): CounterFamily {
  const { name, help, labelNames } = options;
  const { cells, getCell } = createCells(labelNames, (labels) => new CounterCell(labels));
  const readValues = () => [...cells.values()].map((cell) => ({ value: cell.value, labels: { ...cell.labels } }));
  const metric = { name, help, type: 'counter', aggregator: 'sum', get: async () => ({ name, help, type: 'counter', aggregator: 'sum', values: readValues() }) };
  registry.registerMetric(metric as unknown as Metric);
  return { getCell };
}
