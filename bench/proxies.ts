/**
 * Starting the two proxies under test on a config: the gateway (`dist/gateway.mjs start`, run as the
 * config's deployment says: log level, and its stdout appended to a log file when it logs) and the floor
 * (bench/floor-proxy.ts, bundled), each one node process pinned to the proxy CPU, ready once `/healthz` answers.
 */
import { join } from 'node:path';
import { bundleEntry } from '../scripts/bundle.ts';
import { BASELINE_BUNDLE } from './baseline.ts';
import type { BenchConfigFiles } from './config.ts';
import { findFreePort, startNodeProcess, waitForHealthy, type BenchProcess } from './processes.ts';

/** Which proxy: the floor, the gateway under test, or the gateway of a baseline commit (`--baseline`). */
export type ProxyKind = 'floor' | 'gateway' | 'baseline';

/** A started proxy. */
export interface RunningProxy {
  kind: ProxyKind;
  proc: BenchProcess;
  origin: string;
  /** The file the gateway's request log is written to (none for the floor or a silent gateway). */
  logFile?: string;
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

/**
 * Both proxies run as production builds (plain `node`, no TypeScript loader): the gateway as
 * `npm run bundle` makes it, the floor bundled the same way, so neither pays for tsx.
 */
export const PROXY_BUNDLES: Record<Exclude<ProxyKind, 'baseline'>, { entry: string; outfile: string }> = {
  floor: { entry: 'bench/floor-proxy.ts', outfile: 'dist/bench-floor-proxy.mjs' },
  gateway: { entry: 'src/cli.ts', outfile: 'dist/gateway.mjs' },
};

/** Builds both proxies' bundles (about a second); run once before any proxy starts. */
export async function bundleProxies(): Promise<void> {
  await Promise.all(Object.values(PROXY_BUNDLES).map(({ entry, outfile }) => bundleEntry(entry, outfile)));
}

/** The script and arguments that serve a config with one kind of proxy on a port. */
export function defineProxyArgs(kind: ProxyKind, files: BenchConfigFiles, port: number): string[] {
  if (kind === 'floor') return [PROXY_BUNDLES.floor.outfile, '--map', files.mapFile, '--port', String(port)];
  const script = kind === 'baseline' ? BASELINE_BUNDLE : PROXY_BUNDLES.gateway.outfile;
  return [script, 'start', '--config', files.configFile, '--port', String(port), '--host', '127.0.0.1', '--log-level', files.deployment.logLevel];
}

/** Where a gateway on this port writes its log, beside its config (undefined: it does not log). */
export function defineLogFile(kind: ProxyKind, files: BenchConfigFiles, port: number): string | undefined {
  if (kind === 'floor' || files.deployment.logTo !== 'file') return undefined;
  return join(files.configFile, '..', `gateway-${port}.log`);
}

/** Starts a floor or gateway and waits until it is healthy. */
export async function startProxy(kind: ProxyKind, options: ProxyOptions): Promise<RunningProxy> {
  const port = await findFreePort();
  const logFile = defineLogFile(kind, options.files, port);
  const proc = startNodeProcess({
    name: `${kind} (${options.files.modelCount} models)`,
    args: defineProxyArgs(kind, options.files, port),
    nodeFlags: options.nodeFlags,
    cpu: options.cpu,
    env: options.env,
    stdoutFile: logFile,
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(proc, origin);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { kind, proc, origin, logFile, stop: () => proc.stop() };
}
