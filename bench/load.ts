/**
 * Load from a separate process: wrk when it is installed (C, one thread, microsecond latencies), else
 * autocannon's CLI (Node; its histogram keeps whole milliseconds, so its latency is the mean derived from
 * throughput). Both send one fixed request (method, headers, body file) at a fixed concurrency.
 */
import { spawnSync } from 'node:child_process';
import { runAutocannon } from './load-autocannon.ts';
import { runWrk } from './load-wrk.ts';

/** One load run: a fixed request repeated by `connections` keep-alive connections for `durationS`. */
export interface LoadSpec {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  /** File holding the request body (sent unchanged). */
  bodyFile: string;
  connections: number;
  durationS: number;
  /** CPU to pin the load generator to. */
  cpu?: number;
}

/** What a load run measured. */
export interface LoadResult {
  requests: number;
  durationS: number;
  rps: number;
  /** Median latency in µs (`latencyKind: 'mean'`: connections / rps, when the tool cannot resolve µs). */
  p50Us: number;
  p99Us: number;
  latencyKind: 'p50' | 'mean';
  /** Connection errors and timeouts. */
  errors: number;
  /** Responses whose status was not 2xx. */
  non2xx: number;
}

/** A load generator backend. */
export type LoadTool = 'wrk' | 'autocannon';

/** Runs one load spec with a tool. */
export type LoadRunner = (spec: LoadSpec, tmpDir: string) => Promise<LoadResult>;

/** The tool used when none is asked for: wrk if `command -v wrk` finds it, else autocannon. */
export function pickLoadTool(asked?: string): LoadTool {
  if (asked === 'wrk' || asked === 'autocannon') return asked;
  if (asked !== undefined) throw new Error(`unknown load tool "${asked}" (wrk or autocannon)`);
  return spawnSync('sh', ['-c', 'command -v wrk']).status === 0 ? 'wrk' : 'autocannon';
}

/** The runner of a tool. */
export function getLoadRunner(tool: LoadTool): LoadRunner {
  return tool === 'wrk' ? runWrk : runAutocannon;
}
