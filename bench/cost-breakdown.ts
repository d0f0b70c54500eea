/**
 * The issue asks RESULTS.md to break the gateway's remaining cost down from a profile. After a full run's
 * measurement, a fresh floor and gateway (as deployed) are started with `--cpu-prof`, each loaded by one
 * scenario (chat c=64) for a round of its own, then stopped; each profile is split by request stage
 * (bench/profile-stages.ts) and every stage's share turned into microseconds per request with the CPU per
 * request of the unprofiled rounds (the results table's medians) when given: a fresh profiled process has
 * measured anywhere from 1.0x to 2.5x its unprofiled CPU per request, so only its shares are used; its own
 * CPU per request is kept beside them.
 */
import { join } from 'node:path';
import { clearProfileDir, readBusiestProfile } from './profile-dir.ts';
import { START_UP, splitProfileByStage } from './profile-stages.ts';
import type { ProxyKind } from './proxies.ts';
import type { BenchContext, Scenario, Side } from './scenarios/types.ts';
import { MAIN_COUNT } from './config.ts';
import type { ResultRow } from './report.ts';

/** Seconds of load on each profiled proxy. */
const PROFILE_S = 10;

/** One stage's CPU per request on each side (absent: the side has no such stage). */
export interface StageCost {
  stage: string;
  floorUs?: number;
  gatewayUs?: number;
}

/** What the profiled round measured: the scenario, each side's CPU per request, and the cost by stage. */
export interface CostBreakdown {
  scenario: string;
  seconds: number;
  /** The CPU per request the stages add up to: the unprofiled rounds' median when given, else the profiled round's. */
  floorUs: number;
  gatewayUs: number;
  /** What the profiled round itself measured (the profiler's cost and a fresh process included). */
  profiledFloorUs: number;
  profiledGatewayUs: number;
  /** Whether the stages are scaled by the unprofiled rounds' CPU per request. */
  scaledByMeasured: boolean;
  stages: StageCost[];
}

/** Each side's CPU per request from the unprofiled rounds (the results table's medians). */
export interface MeasuredCpu {
  floorUs: number;
  gatewayUs: number;
}

/** Microseconds per request of each stage (start-up left out): its share of the busy time times the CPU per request. */
function readStageCosts(split: ReturnType<typeof splitProfileByStage>, cpuUs: number): Map<string, number> {
  return new Map(split.filter((row) => row.stage !== START_UP).map((row) => [row.stage, row.share * cpuUs]));
}

/** Joins both sides' stage costs, the gateway's largest first. */
export function joinStageCosts(floor: Map<string, number>, gateway: Map<string, number>): StageCost[] {
  const stages = [...new Set([...gateway.keys(), ...floor.keys()])];
  return stages
    .map((stage) => ({ stage, floorUs: floor.get(stage), gatewayUs: gateway.get(stage) }))
    .sort((a, b) => (b.gatewayUs ?? 0) - (a.gatewayUs ?? 0) || (b.floorUs ?? 0) - (a.floorUs ?? 0));
}

async function profileSide(ctx: BenchContext, scenario: Scenario, kind: ProxyKind, dir: string, measuredUs?: number): Promise<{ cpuUs: number; stages: Map<string, number> }> {
  const proxy = await ctx.startProxy(kind, MAIN_COUNT, undefined, ['--cpu-prof', '--cpu-prof-dir', join(dir, kind)]);
  let cpuUs: number;
  try {
    const side: Side = { label: `${kind}, profiled`, kind, pid: proxy.proc.pid, origin: proxy.origin, logFile: proxy.logFile };
    const round = { ...ctx, roundS: PROFILE_S };
    await scenario.warmup?.(round, side);
    const cpu = scenario.metrics.find((m) => m.unit === 'µs' && m.id.endsWith('-cpu'));
    cpuUs = cpu ? (await scenario.measure(round, side))[cpu.id] : Number.NaN;
  } finally {
    await proxy.stop();
  }
  const profile = await readBusiestProfile(join(dir, kind));
  if (!profile) throw new Error(`no CPU profile was written by the ${kind} in ${dir}`);
  return { cpuUs, stages: readStageCosts(splitProfileByStage(profile.profile), measuredUs ?? cpuUs) };
}

/** The floor's and the gateway's CPU per request under `scenario` in the results table (undefined when it has no such row). */
export function findMeasuredCpu(rows: ResultRow[], scenario: Scenario): MeasuredCpu | undefined {
  const metric = scenario.metrics.find((m) => m.unit === 'µs' && m.id.endsWith('-cpu'));
  const row = metric && rows.find((r) => r.label === metric.label);
  return row?.base === undefined ? undefined : { floorUs: row.base, gatewayUs: row.subject };
}

/** Profiles a fresh floor and gateway under `scenario` (one after the other) and breaks their CPU per request down by stage. */
export async function measureCostBreakdown(ctx: BenchContext, scenario: Scenario, measured?: MeasuredCpu): Promise<CostBreakdown> {
  const dir = join(ctx.tmpDir, 'cost-profile');
  await clearProfileDir(dir);
  const floor = await profileSide(ctx, scenario, 'floor', dir, measured?.floorUs);
  const gateway = await profileSide(ctx, scenario, 'gateway', dir, measured?.gatewayUs);
  return {
    scenario: scenario.title,
    seconds: PROFILE_S,
    floorUs: measured?.floorUs ?? floor.cpuUs,
    gatewayUs: measured?.gatewayUs ?? gateway.cpuUs,
    profiledFloorUs: floor.cpuUs,
    profiledGatewayUs: gateway.cpuUs,
    scaledByMeasured: measured !== undefined,
    stages: joinStageCosts(floor.stages, gateway.stages),
  };
}
