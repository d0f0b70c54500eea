/** The metrics the overview charts, one value per minute. */
export const SERIES_METRICS = ['requestsPerSecond', 'errorRate', 'p50LatencyMs', 'p95LatencyMs', 'p50TtftMs', 'tokensPerMinute', 'spendUsd'] as const;
export type SeriesMetric = (typeof SERIES_METRICS)[number];

/** The last hour minute by minute: 60 values per metric, oldest first (the last one is the current minute so far). */
export type UsageSeries = Record<SeriesMetric, number[]>;

/** How many minutes a series covers. */
export const SERIES_MINUTES = 60;

/** The overview's numbers over a group's last hour. */
export interface UsageSummary {
  requests: number;
  /** Requests per second over the last minute (the last 60 seconds, to the second). */
  requestsPerSecond: number;
  /** Share of the requests answered with a status of 400 or more (0 to 1). */
  errorRate: number;
  /** Percentiles read from log-spaced histograms: within one bucket's width (about 19 %) of the exact value. */
  p50LatencyMs: number;
  p95LatencyMs: number;
  p50TtftMs: number;
  /** Input plus output tokens per minute over the last hour. */
  tokensPerMinute: number;
  spendUsd: number;
}

/** One group's numbers over the last hour and its chart data minute by minute. */
export interface UsageGroup {
  summary: UsageSummary;
  series: UsageSeries;
}
