/**
 * Starting the two proxies under test on a config: the gateway (`src/cli.ts start`) and the floor
 * (`bench/floor-proxy.ts`), each one node process pinned to the proxy CPU, ready once `/healthz` answers.
 */
import type { BenchConfigFiles } from './config.ts';
import { findFreePort, startNodeProcess, waitForHealthy, type BenchProcess } from './processes.ts';

/** Which proxy. */
export type ProxyKind = 'floor' | 'gateway';

/** A started proxy. */
export interface RunningProxy {
  kind: ProxyKind;
  proc: BenchProcess;
  origin: string;
  stop(): Promise<void>;
}

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  files: BenchConfigFiles;
  cpu?: number;
  env: NodeJS.ProcessEnv;
  /** Extra node flags (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
}

/** The script and arguments that serve a config with one kind of proxy on a port. */
export function defineProxyArgs(kind: ProxyKind, files: BenchConfigFiles, port: number): string[] {
  if (kind === 'floor') return ['bench/floor-proxy.ts', '--map', files.mapFile, '--port', String(port)];
  return ['src/cli.ts', 'start', '--config', files.configFile, '--port', String(port), '--host', '127.0.0.1', '--log-level', 'silent'];
}

/** Starts a floor or gateway and waits until it is healthy. */
export async function startProxy(kind: ProxyKind, options: ProxyOptions): Promise<RunningProxy> {
  const port = await findFreePort();
  const proc = startNodeProcess({
    name: `${kind} (${options.files.modelCount} models)`,
    args: defineProxyArgs(kind, options.files, port),
    nodeFlags: options.nodeFlags,
    cpu: options.cpu,
    env: options.env,
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(proc, origin);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { kind, proc, origin, stop: () => proc.stop() };
}
