import type { Metric, Registry } from 'prom-client';
import { createCells } from './create-cells.ts';

/** What a histogram family is told about itself: prom-client's name, help, label names and bucket bounds. */
export interface HistogramOptions<Label extends string> {
  name: string;
  help: string;
  labelNames: readonly Label[];
  buckets: readonly number[];
}

/**
 * One series of a histogram (one combination of label values): plain counts, no labels object built or hashed
 * when a value is observed. `counts[i]` counts the values in bucket `i` alone (not cumulative); a value above
 * the last bound only counts in `count` and `sum` (the `+Inf` bucket), as prom-client does.
 */
export class HistogramCell {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly bounds: readonly number[],
    readonly labels: Readonly<Record<string, string>>,
  ) {
    this.counts = new Array<number>(bounds.length).fill(0);
  }

  /** Adds one value (ignored unless it is a finite number). */
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        this.counts[i]++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

/** A histogram's cells by label values, and its samples in prom-client's shape at scrape time. */
export interface HistogramFamily {
  /** The series of these label values (in `labelNames` order), made on first use. */
  getCell(...values: string[]): HistogramCell;
}

/**
 * Defines a histogram in `registry` whose series the request path fills directly ({@link HistogramCell}), read
 * only when the registry is scraped: prom-client renders it (text, HELP, TYPE, label order: `le` first, as for
 * its own histograms) and sums it over `--workers` processes, through the metric object's `get()`.
 */
export function defineHistogram<Label extends string>(registry: Registry, options: HistogramOptions<Label>): HistogramFamily {
  const { name, help, labelNames, buckets } = options;
  const { cells, getCell } = createCells(labelNames, (labels) => new HistogramCell(buckets, labels));
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: readSamples(name, buckets, cells.values()) }),
  };
  registry.registerMetric(metric as unknown as Metric);
  return { getCell };
}

/** The samples of every cell: cumulative buckets, `+Inf`, `_sum` and `_count`, as prom-client lists them. */
function readSamples(name: string, bounds: readonly number[], cells: Iterable<HistogramCell>) {
  const samples: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
  const bucket = `${name}_bucket`;
  for (const cell of cells) {
    let total = 0;
    bounds.forEach((le, i) => {
      total += cell.counts[i];
      samples.push({ labels: { le, ...cell.labels }, value: total, metricName: bucket });
    });
    samples.push({ labels: { le: '+Inf', ...cell.labels }, value: cell.count, metricName: bucket });
    samples.push({ labels: { ...cell.labels }, value: cell.sum, metricName: `${name}_sum` });
    samples.push({ labels: { ...cell.labels }, value: cell.count, metricName: `${name}_count` });
  }
  return samples;
}
