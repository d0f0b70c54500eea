/**
 * The autocannon backend of the load generator: its CLI in a child process with `--json`. Its latency
 * histogram holds whole milliseconds, so the latency reported is the mean, connections / requests per second.
 */
import { createRequire } from 'node:module';
import type { LoadResult, LoadSpec } from './load.ts';
import { readLastJsonLine, runChild } from './run-child.ts';

interface AutocannonJson {
  requests: { total: number };
  duration: number;
  latency: { p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** The autocannon command-line arguments of a spec (the body file is read by autocannon as UTF-8). */
export function defineAutocannonArgs(spec: LoadSpec): string[] {
  const headers = Object.entries(spec.headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  return ['-c', String(spec.connections), '-d', String(spec.durationS), '-m', spec.method, ...headers, '-i', spec.bodyFile, '--json', spec.url];
}

/** Runs autocannon's CLI for a spec and reads its JSON result. */
export async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const result = readLastJsonLine<AutocannonJson>(await runChild(process.execPath, [cli, ...defineAutocannonArgs(spec)], spec.cpu));
  const rps = result.requests.total / result.duration;
  return {
    requests: result.requests.total,
    durationS: result.duration,
    rps,
    p50Us: rps > 0 ? (spec.connections * 1e6) / rps : 0,
    p99Us: result.latency.p99 * 1000,
    latencyKind: 'mean',
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
