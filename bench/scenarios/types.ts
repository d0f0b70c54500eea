/**
 * What a benchmark scenario is: the metrics it reports, the two parties it compares (by default the
 * shared floor and gateway), and one round of measurement on one party. The runner interleaves rounds.
 */
import type { BenchBodies } from '../bodies.ts';
import type { BenchConfigFiles, BenchVendorUrls } from '../config.ts';
import type { GatewayDeployment } from '../deployment.ts';
import type { LoadRunner, LoadTool } from '../load.ts';
import type { ProxyKind, RunningProxy } from '../proxies.ts';
import type { Target } from '../targets.ts';

/** One metric a scenario reports every round. */
export interface MetricSpec {
  id: string;
  /** Row label in the table. */
  label: string;
  unit: string;
  /** Decimals printed (default 0). */
  digits?: number;
  target?: Target;
}

/** One party of a comparison: a running proxy (or the vendor itself), or a label only for scenarios that start their own. */
export interface Side {
  label: string;
  kind: ProxyKind | 'vendor';
  /** Process id (0 when the scenario starts its own processes). */
  pid: number;
  /** `http://127.0.0.1:P` ('' when there is no long-running process). */
  origin: string;
  /** Headers sent instead of the client key's `authorization` (the vendor side takes the vendor key). */
  auth?: Record<string, string>;
  /** The gateway's request log file (load rounds check it grew by a line per request, then empty it). */
  logFile?: string;
}

/** The parties of a scenario: `base` is the reference (absent for absolute targets), `subject` is judged. */
export interface ScenarioPair {
  base?: Side;
  subject: Side;
  close?(): Promise<void>;
}

/** Values of one round on one side, by metric id. */
export type Measured = Record<string, number>;

/** Everything a scenario may use. */
export interface BenchContext {
  quick: boolean;
  rounds: number;
  roundS: number;
  warmupS: number;
  tmpDir: string;
  loadTool: LoadTool;
  load: LoadRunner;
  /** CPUs to pin to (undefined without taskset): proxies on one, vendor, load and clients on the other. */
  cpu: { proxy?: number; load?: number };
  clientKey: string;
  /** Environment the proxies need (the vendor and client keys). */
  env: NodeJS.ProcessEnv;
  bodies: BenchBodies;
  vendorUrls: BenchVendorUrls;
  /** Config files by model count (10, 1,000 and the large count). */
  configs: Map<number, BenchConfigFiles>;
  /** The large model count: 10,000 (1,000 in quick mode). */
  largeCount: number;
  /** The reference: the floor proxy, or with `--baseline REF` the gateway at REF (kind `baseline`). */
  floor: Side;
  /** The gateway as deployed (log at info to a file, limits on the key): the side the targets judge. */
  gateway: Side;
  /** The static fast vendor itself, addressed directly with the vendor key (the headroom check). */
  vendor: Side;
  /**
   * Starts a fresh floor or gateway on the config of `modelCount` models, pinned to the proxy CPU; a
   * gateway runs as `deployment` says (default: as deployed), with `nodeFlags` (e.g. `--cpu-prof`) when given.
   */
  startProxy(kind: ProxyKind, modelCount: number, deployment?: GatewayDeployment, nodeFlags?: string[]): Promise<RunningProxy>;
  /** Remarks printed under the table (non-2xx answers, skipped parts). */
  notes: string[];
}

/** A benchmark scenario. */
export interface Scenario {
  id: string;
  title: string;
  metrics: MetricSpec[];
  /** Non-2xx answers or connection errors break the harness (exit 1) instead of adding a note. */
  mustSucceed?: boolean;
  /** Rounds to run (default ctx.rounds). */
  rounds?(ctx: BenchContext): number;
  /** Its rounds grow with `ctx.roundS`, so a run may measure it again with longer rounds (bench/run-until-steady.ts). */
  lengthens?: boolean;
  start?(ctx: BenchContext): Promise<ScenarioPair>;
  warmup?(ctx: BenchContext, side: Side): Promise<void>;
  measure(ctx: BenchContext, side: Side): Promise<Measured>;
}
