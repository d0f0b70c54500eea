import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { defineCounter } from '../../src/metrics/define-counter.ts';
import { defineHistogram } from '../../src/metrics/define-histogram.ts';

const BUCKETS = [0.01, 0.1, 1, 10];
const LABELS = ['a', 'b'] as const;
/** Values on, between, below and above the bounds, a few label combinations, one with characters to escape. */
const OBSERVED: [string, string, number][] = [
  ['x', 'y', 0.01], ['x', 'y', 0.05], ['x', 'y', 0], ['x', 'y', 11], ['q"\\\n', 'y', 1], ['x', 'z', 0.3], ['x', 'y', 10],
];

/** The same observations fed to prom-client's own metrics and to the gateway's cells. */
function feedBoth() {
  const theirs = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({ name: 'h_seconds', help: 'A histogram.', labelNames: LABELS, buckets: BUCKETS, registers: [theirs] });
  const counter = new Counter({ name: 'c_total', help: 'A counter.', labelNames: LABELS, registers: [theirs] });
  const cells = defineHistogram(ours, { name: 'h_seconds', help: 'A histogram.', labelNames: LABELS, buckets: BUCKETS });
  const counts = defineCounter(ours, { name: 'c_total', help: 'A counter.', labelNames: LABELS });
  for (const [a, b, value] of OBSERVED) {
    histogram.labels(a, b).observe(value);
    cells.getCell(a, b).observe(value);
    counter.labels(a, b).inc(value + 0.5);
    counts.getCell(a, b).inc(value + 0.5);
  }
  return { theirs, ours };
}

describe('series filled as plain numbers and read at scrape time', () => {
  it("render the same Prometheus text as prom-client's own histogram and counter", async () => {
    const { theirs, ours } = feedBoth();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('h_seconds_bucket{le="+Inf",a="x",b="y"} 5');
  });

  it('are summed over workers like prom-client metrics (the JSON a worker sends its primary)', async () => {
    const { theirs, ours } = feedBoth();
    const summed = async (registry: Registry) => AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), await registry.getMetricsAsJSON()]).metrics();
    const text = await summed(ours);
    expect(text).toBe(await summed(theirs));
    expect(text).toContain('h_seconds_count{a="x",b="y"} 10');
  });

  it('ignore a value that is not a finite number, and a counter ignores amounts of 0 or less', async () => {
    const registry = new Registry();
    const cell = defineHistogram(registry, { name: 'h', help: 'h', labelNames: [], buckets: BUCKETS }).getCell();
    cell.observe(Number.NaN);
    cell.observe(Number.POSITIVE_INFINITY);
    const counter = defineCounter(registry, { name: 'c', help: 'c', labelNames: [] }).getCell();
    counter.inc(-1);
    counter.inc(Number.NaN);
    expect([cell.count, cell.sum, counter.value]).toEqual([0, 0, 0]);
  });
});
