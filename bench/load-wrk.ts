/** The wrk backend of the load generator: one thread, a Lua script carrying the request and a JSON summary. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadResult, LoadSpec } from './load.ts';
import { readLastJsonLine, runChild } from './run-child.ts';

interface WrkSummary {
  requests: number;
  durationUs: number;
  p50Us: number;
  p99Us: number;
  errors: number;
  non2xx: number;
}

/** The Lua script of a spec: method, headers and body file, and a `done` hook printing one JSON line. */
export function defineWrkScript(spec: LoadSpec): string {
  const lines = [
    `wrk.method = ${JSON.stringify(spec.method)}`,
    `local f = assert(io.open(${JSON.stringify(spec.bodyFile)}, "rb"))`,
    'wrk.body = f:read("*a")',
    'f:close()',
    ...Object.entries(spec.headers).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`),
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"errors":%d,"non2xx":%d}\\n',`,
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),',
    '    e.connect + e.read + e.write + e.timeout, e.status))',
    'end',
  ];
  return `${lines.join('\n')}\n`;
}

let scripts = 0;

/** Runs wrk with one thread for a spec and reads its JSON summary. */
export async function runWrk(spec: LoadSpec, tmpDir: string): Promise<LoadResult> {
  const script = join(tmpDir, `wrk-${process.pid}-${scripts++}.lua`);
  await writeFile(script, defineWrkScript(spec));
  const args = ['-t1', `-c${spec.connections}`, `-d${Math.max(1, Math.round(spec.durationS))}s`, '--timeout', '30s', '-s', script, spec.url];
  const summary = readLastJsonLine<WrkSummary>(await runChild('wrk', args, spec.cpu));
  const durationS = summary.durationUs / 1e6;
  return {
    requests: summary.requests,
    durationS,
    rps: summary.requests / durationS,
    p50Us: summary.p50Us,
    p99Us: summary.p99Us,
    latencyKind: 'p50',
    errors: summary.errors,
    non2xx: summary.non2xx,
  };
}
