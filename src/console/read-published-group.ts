import { SERIES_METRICS, SERIES_MINUTES, type UsageGroup, type UsageSummary } from './aggregate/usage-group.ts';

const SUMMARY_FIELDS: readonly (keyof UsageSummary)[] = ['requests', 'requestsPerSecond', 'errorRate', 'p50LatencyMs', 'p95LatencyMs', 'p50TtftMs', 'tokensPerMinute', 'spendUsd'];

/** Parses a value of the store: undefined when it is not JSON. */
export function parseStored(text: string | undefined): any {
  try {
    return JSON.parse(text ?? 'null');
  } catch {
    return undefined;
  }
}

/** A finite number, or 0 for anything else. */
export const readFiniteNumber = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * A group another instance published (see describe-instance.ts) in the shape the page draws: each summary
 * number finite, each series 60 finite numbers; undefined when it is not an object with `summary` and
 * `series`. Another process's value is not trusted to be well formed.
 */
export function readPublishedGroup(value: any): UsageGroup | undefined {
  if (!value || typeof value !== 'object' || !value.summary || !value.series || typeof value.summary !== 'object' || typeof value.series !== 'object') return undefined;
  const summary = Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, readFiniteNumber(value.summary[field])])) as unknown as UsageSummary;
  const series = Object.fromEntries(
    SERIES_METRICS.map((metric) => {
      const values: unknown[] = Array.isArray(value.series[metric]) ? value.series[metric] : [];
      return [metric, Array.from({ length: SERIES_MINUTES }, (_, i) => readFiniteNumber(values[i]))];
    }),
  ) as UsageGroup['series'];
  return { summary, series };
}
