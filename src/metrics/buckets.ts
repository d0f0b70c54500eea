/**
 * Histogram bucket boundaries of the OpenTelemetry GenAI semantic conventions (gen-ai-metrics.md:
 * "SHOULD be specified with ExplicitBucketBoundaries of ..."), and the gateway's own for its overhead.
 */

/** `gen_ai.server.request.duration` (seconds). */
export const REQUEST_DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/** `gen_ai.server.time_to_first_token` (seconds). */
export const TIME_TO_FIRST_TOKEN_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0];

/** `gen_ai.server.time_per_output_token` (seconds). */
export const TIME_PER_OUTPUT_TOKEN_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5];

/** `gen_ai.client.token.usage` (tokens). */
export const TOKEN_USAGE_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

/** The gateway's own time per request (seconds): sub-millisecond to a second. */
export const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
