import type { Registry } from 'prom-client';
import {
  OVERHEAD_BUCKETS,
  REQUEST_DURATION_BUCKETS,
  TIME_PER_OUTPUT_TOKEN_BUCKETS,
  TIME_TO_FIRST_TOKEN_BUCKETS,
  TOKEN_USAGE_BUCKETS,
} from './buckets.ts';
import { defineCounter } from './define-counter.ts';
import { defineHistogram } from './define-histogram.ts';

/** The labels of the GenAI metrics: the conventions' attributes, dots written as underscores. */
const GEN_AI_LABELS = ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model', 'gen_ai_response_model'] as const;

/**
 * Defines the request metrics (fed from the usage event) in `registry`: series the request path adds to as plain
 * numbers, rendered by prom-client only when scraped (define-histogram.ts, define-counter.ts).
 */
export function defineMetrics(registry: Registry) {
  return {
    requestDuration: defineHistogram(registry, {
      name: 'gen_ai_server_request_duration_seconds',
      help: 'GenAI request duration, from arrival to the last byte, by operation, provider, models and error type.',
      labelNames: [...GEN_AI_LABELS, 'error_type'] as const,
      buckets: REQUEST_DURATION_BUCKETS,
    }),
    timeToFirstToken: defineHistogram(registry, {
      name: 'gen_ai_server_time_to_first_token_seconds',
      help: 'Time to the first response byte of successful GenAI requests.',
      labelNames: GEN_AI_LABELS,
      buckets: TIME_TO_FIRST_TOKEN_BUCKETS,
    }),
    timePerOutputToken: defineHistogram(registry, {
      name: 'gen_ai_server_time_per_output_token_seconds',
      help: 'Time per output token after the first, for successful GenAI requests with more than one output token.',
      labelNames: GEN_AI_LABELS,
      buckets: TIME_PER_OUTPUT_TOKEN_BUCKETS,
    }),
    tokenUsage: defineHistogram(registry, {
      name: 'gen_ai_client_token_usage',
      help: 'Tokens per request by type (input, output, cached_input, cache_creation_input, reasoning).',
      labelNames: [...GEN_AI_LABELS, 'gen_ai_token_type'] as const,
      buckets: TOKEN_USAGE_BUCKETS,
    }),
    requests: defineCounter(registry, {
      name: 'gateway_requests_total',
      help: 'Requests answered, by caller style, route template, status and key name.',
      labelNames: ['style', 'route', 'status', 'key'] as const,
    }),
    overhead: defineHistogram(registry, {
      name: 'gateway_overhead_seconds',
      help: "The gateway's own time per request: its duration minus the time vendor calls took.",
      labelNames: ['style'] as const,
      buckets: OVERHEAD_BUCKETS,
    }),
    rejections: defineCounter(registry, {
      name: 'gateway_rejections_total',
      help: 'Requests refused by a limit or a budget (429), by reason (the error code) and key name.',
      labelNames: ['reason', 'key'] as const,
    }),
    attempts: defineCounter(registry, {
      name: 'gateway_attempts_total',
      help: 'Attempts on vendor targets (vendor/upstream) by outcome: ok (the last attempt) or failed (another followed).',
      labelNames: ['target', 'outcome'] as const,
    }),
    fallbacks: defineCounter(registry, {
      name: 'gateway_fallbacks_total',
      help: 'Times a request moved on from a failed target to another one, by the target it left.',
      labelNames: ['target'] as const,
    }),
    cooldownSkips: defineCounter(registry, {
      name: 'gateway_cooldown_skips_total',
      help: 'Times a target was skipped because it was cooling down after repeated failures.',
      labelNames: ['target'] as const,
    }),
    spend: defineCounter(registry, {
      name: 'gateway_spend_usd_total',
      help: 'Spend in US dollars by key name and model (from the price table).',
      labelNames: ['key', 'model'] as const,
    }),
  };
}

/** The request metrics of {@link defineMetrics}. */
export type RequestMetrics = ReturnType<typeof defineMetrics>;
