/**
 * Scenarios driven by the load generator: one fixed request at a fixed concurrency for a round, with the
 * proxy's CPU time read from /proc before and after (CPU per request = CPU seconds / requests).
 */
import { readCpuSeconds } from '../processes.ts';
import type { BenchContext, Measured, MetricSpec, Scenario, Side } from './types.ts';

/** The request a side is sent (a side may get its own: e.g. the floor's passthrough as a translation's base). */
export interface LoadRequest {
  path: string;
  bodyFile: string;
  contentType: string;
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

/** One load round against a side: requests/s, latency, CPU per request, and the failures seen. */
export async function measureLoad(ctx: BenchContext, side: Side, request: LoadRequest, connections: number, durationS: number) {
  const before = readCpuSeconds(side.pid);
  const result = await ctx.load(
    {
      url: side.origin + request.path,
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.clientKey}`, 'content-type': request.contentType },
      bodyFile: request.bodyFile,
      connections,
      durationS,
      cpu: ctx.cpu.load,
    },
    ctx.tmpDir,
  );
  const cpuS = readCpuSeconds(side.pid) - before;
  return { ...result, cpuUsPerRequest: result.requests > 0 ? (cpuS * 1e6) / result.requests : Number.NaN };
}

/** Defines a load-driven scenario from its spec. */
export function defineLoadScenario(spec: LoadScenarioSpec): Scenario {
  const connections = (ctx: BenchContext) => (typeof spec.connections === 'number' ? spec.connections : spec.connections(ctx));
  const atLeast = (seconds: number) => Math.max(seconds, spec.minDurationS ?? 0);
  return {
    id: spec.id,
    title: spec.title,
    metrics: [spec.rps, spec.latency, spec.cpu].filter((m): m is MetricSpec => m !== undefined),
    mustSucceed: spec.mustSucceed,
    start: spec.start,
    async warmup(ctx, side) {
      await measureLoad(ctx, side, spec.request(ctx, side), connections(ctx), atLeast(ctx.warmupS));
    },
    async measure(ctx, side): Promise<Measured> {
      const result = await measureLoad(ctx, side, spec.request(ctx, side), connections(ctx), atLeast(ctx.roundS));
      const measured: Measured = { non2xx: result.non2xx, errors: result.errors, requests: result.requests };
      if (spec.rps) measured[spec.rps.id] = result.rps;
      if (spec.latency) measured[spec.latency.id] = spec.latency.unit === 'ms' ? result.p50Us / 1000 : result.p50Us;
      if (spec.cpu) measured[spec.cpu.id] = result.cpuUsPerRequest;
      return measured;
    },
  };
}
