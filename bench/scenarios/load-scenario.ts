/**
 * Scenarios driven by the load generator: one fixed request at a fixed concurrency for a round, with the
 * proxy's CPU time read from /proc before and after (CPU per request = CPU seconds / requests). A gateway
 * that logs must have written at least a short line per request in the round (else the row would not
 * measure the gateway as deployed); its log file is emptied after every round.
 */
import { statSync, truncateSync } from 'node:fs';
import { readCpuSeconds } from '../processes.ts';
import { MAX_WARMUP_ROUNDS, warmUntilSettled } from '../warm-up.ts';
import { reportCheckFailure } from './checks.ts';
import type { BenchContext, Measured, MetricSpec, Scenario, Side } from './types.ts';

/** The request a side is sent (a side may get its own: e.g. the floor's passthrough as a translation's base). */
export interface LoadRequest {
  path: string;
  bodyFile: string;
  contentType: string;
  /** More headers (after the side's auth): e.g. `x-api-key` for the vendor's messages endpoint. */
  headers?: Record<string, string>;
}

/** A load-driven scenario: which request, how many connections, and which metrics to report. */
export interface LoadScenarioSpec {
  id: string;
  title: string;
  connections: number | ((ctx: BenchContext) => number);
  /**
   * Shortest warm-up and round, in seconds, whatever --duration and --warmup say: for requests that take
   * about a second, which a 1-second quick round would never see finish.
   */
  minDurationS?: number;
  /** Longest warm-up and round, in seconds (checks that need no long rounds). */
  maxDurationS?: number;
  /** Rounds to run (default ctx.rounds). */
  rounds?: Scenario['rounds'];
  request(ctx: BenchContext, side: Side): LoadRequest;
  /** Requests per second. */
  rps?: MetricSpec;
  /** Median latency (µs, or ms when the metric's unit is `ms`). */
  latency?: MetricSpec;
  /** Proxy CPU time per request (µs). */
  cpu?: MetricSpec;
  mustSucceed?: boolean;
  start?: Scenario['start'];
}

/** Fewer log bytes per request than this means the gateway did not write its request line. */
export const MIN_LOG_BYTES_PER_REQUEST = 100;

/**
 * One load round against a side: requests/s, latency, CPU per request, the failures seen, and the bytes
 * the side's request log grew by (undefined when it has no log file).
 */
export async function measureLoad(ctx: BenchContext, side: Side, request: LoadRequest, connections: number, durationS: number) {
  const logBefore = side.logFile === undefined ? 0 : statSync(side.logFile).size;
  const before = readCpuSeconds(side.pid);
  const result = await ctx.load(
    {
      url: side.origin + request.path,
      method: 'POST',
      headers: { ...(side.auth ?? { authorization: `Bearer ${ctx.clientKey}` }), ...request.headers, 'content-type': request.contentType },
      bodyFile: request.bodyFile,
      connections,
      durationS,
      cpu: ctx.cpu.load,
    },
    ctx.tmpDir,
  );
  const cpuS = readCpuSeconds(side.pid) - before;
  let logBytes: number | undefined;
  if (side.logFile !== undefined) {
    logBytes = statSync(side.logFile).size - logBefore;
    truncateSync(side.logFile, 0);
  }
  return { ...result, cpuUsPerRequest: result.requests > 0 ? (cpuS * 1e6) / result.requests : Number.NaN, logBytes };
}

/** Defines a load-driven scenario from its spec. */
export function defineLoadScenario(spec: LoadScenarioSpec): Scenario {
  const connections = (ctx: BenchContext) => (typeof spec.connections === 'number' ? spec.connections : spec.connections(ctx));
  const atLeast = (seconds: number) => Math.min(Math.max(seconds, spec.minDurationS ?? 0), spec.maxDurationS ?? Infinity);
  return {
    id: spec.id,
    title: spec.title,
    metrics: [spec.rps, spec.latency, spec.cpu].filter((m): m is MetricSpec => m !== undefined),
    mustSucceed: spec.mustSucceed,
    rounds: spec.rounds,
    lengthens: spec.maxDurationS === undefined,
    start: spec.start,
    async warmup(ctx, side) {
      const round = async () => (await measureLoad(ctx, side, spec.request(ctx, side), connections(ctx), atLeast(ctx.warmupS))).cpuUsPerRequest;
      // A quick run is a smoke test: one warm-up round; a measurement warms up until the cost per request settles.
      await warmUntilSettled(round, ctx.quick ? 1 : MAX_WARMUP_ROUNDS);
    },
    async measure(ctx, side): Promise<Measured> {
      const result = await measureLoad(ctx, side, spec.request(ctx, side), connections(ctx), atLeast(ctx.roundS));
      if (result.logBytes !== undefined && result.logBytes < result.requests * MIN_LOG_BYTES_PER_REQUEST) {
        reportCheckFailure(ctx, spec.id, `${side.label} logged ${result.logBytes} bytes for ${result.requests} requests in a round: its request log is not on`);
      }
      const measured: Measured = { non2xx: result.non2xx, errors: result.errors, requests: result.requests };
      if (spec.rps) measured[spec.rps.id] = result.rps;
      if (spec.latency) measured[spec.latency.id] = spec.latency.unit === 'ms' ? result.p50Us / 1000 : result.p50Us;
      if (spec.cpu) measured[spec.cpu.id] = result.cpuUsPerRequest;
      return measured;
    },
  };
}
