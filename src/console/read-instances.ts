import type { ValueStore } from '../limits/store.ts';
import { instanceKey, readInstanceIndex } from './instance-index.ts';
import type { InstanceOverview } from './publish-instance.ts';
import { SERIES_METRICS, SERIES_MINUTES } from './summarize-minutes.ts';
import type { UsageSummary } from './summarize-group.ts';

/** The most instances listed (the index is written by every instance; a bound keeps one read small). */
const MAX_INSTANCES = 50;
const SUMMARY_FIELDS: readonly (keyof UsageSummary)[] = ['requests', 'requestsPerSecond', 'errorRate', 'p50LatencyMs', 'p95LatencyMs', 'p50TtftMs', 'tokensPerMinute', 'spendUsd'];

const toNumber = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * A published overview in the shape the page draws (each number finite, each series 60 numbers), or
 * undefined when it is not one: another process's value is not trusted to be well formed.
 */
function readOverview(text: string | undefined): InstanceOverview | undefined {
  let value: any;
  try {
    value = JSON.parse(text ?? 'null');
  } catch {
    return undefined;
  }
  if (typeof value?.id !== 'string' || typeof value.summary !== 'object' || typeof value.series !== 'object' || !value.summary || !value.series) return undefined;
  const summary = Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, toNumber(value.summary[field])])) as unknown as UsageSummary;
  const series = Object.fromEntries(
    SERIES_METRICS.map((metric) => {
      const values: unknown[] = Array.isArray(value.series[metric]) ? value.series[metric] : [];
      return [metric, Array.from({ length: SERIES_MINUTES }, (_, i) => toNumber(values[i]))];
    }),
  ) as InstanceOverview['series'];
  return { id: value.id.slice(0, 200), updatedAt: toNumber(value.updatedAt), summary, series };
}

/**
 * The instances sharing the store, as each last published itself (see publish-instance.ts), sorted by id:
 * `self` marks the one serving this console. A store that cannot be read lists none.
 */
export async function readInstances(values: ValueStore, selfId: string): Promise<(InstanceOverview & { self: boolean })[]> {
  try {
    const ids = Object.keys(await readInstanceIndex(values)).sort().slice(0, MAX_INSTANCES);
    const texts = await Promise.all(ids.map((id) => values.get(instanceKey(id))));
    return texts.flatMap((text) => {
      const overview = readOverview(text);
      return overview ? [{ ...overview, self: overview.id === selfId }] : [];
    });
  } catch {
    return [];
  }
}
