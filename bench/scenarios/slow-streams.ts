/**
 * Memory under many slow streams: 1,000 concurrent streams (200 in quick mode) of 20 events, one every
 * 50 ms, from the second (slow) vendor process. Each round starts a fresh proxy on the 1,000-model config
 * (a process that already held the streams keeps its grown heap, which hides the cost in later rounds),
 * warms it with a few streams, reads its idle RSS after a pause, then samples RSS every 20 ms while the
 * streams run and reports the peak above that idle baseline.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readRssBytes } from '../processes.ts';
import { readLastJsonLine, runChild } from '../run-child.ts';
import type { ProxyKind } from '../proxies.ts';
import type { BenchContext, Measured, Scenario, Side } from './types.ts';

interface SlowStreamsResult {
  ok: number;
  failed: number;
  peakOpen: number;
  ms: number;
}

const MB = 1024 * 1024;

const WARMUP_STREAMS = 20;
const MAIN_COUNT = 1000;

function countStreams(ctx: BenchContext): number {
  return ctx.quick ? 200 : 1000;
}

function runSlowStreamsClient(ctx: BenchContext, origin: string, count: number): Promise<string> {
  const args = [
    '--import', 'tsx', 'bench/clients/slow-streams-client.ts',
    '--url', `${origin}/v1/chat/completions`,
    '--key', ctx.clientKey,
    '--body-file', ctx.bodies.slowStream,
    '--count', String(count),
  ];
  return runChild(process.execPath, args, ctx.cpu.load);
}

/** Holds the slow streams through a fresh proxy of a side's kind while sampling its RSS. */
async function holdSlowStreams(ctx: BenchContext, side: Side): Promise<{ baseline: number; peak: number; result: SlowStreamsResult }> {
  const proxy = await ctx.startProxy(side.kind as ProxyKind, MAIN_COUNT);
  try {
    await runSlowStreamsClient(ctx, proxy.origin, WARMUP_STREAMS);
    await sleep(1000);
    const pid = proxy.proc.pid;
    const baseline = readRssBytes(pid);
    let peak = baseline;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, readRssBytes(pid));
        await sleep(20);
      }
    })();
    try {
      const result = readLastJsonLine<SlowStreamsResult>(await runSlowStreamsClient(ctx, proxy.origin, countStreams(ctx)));
      return { baseline, peak, result };
    } finally {
      sampling = false;
      await sampler;
    }
  } finally {
    await proxy.stop();
  }
}

/**
 * RSS above the idle baseline under slow streams (the gateway may use at most 1.3x the floor's), and the
 * peak RSS itself, which is what a host must hold.
 */
export const slowStreamsScenario: Scenario = {
  id: 'slow-streams',
  title: 'RSS above idle under concurrent slow streams',
  mustSucceed: true,
  metrics: [
    { id: 'slow-streams-rss', label: 'RSS above idle, {streams} slow streams (20 x 50 ms)', unit: 'MB', digits: 1, target: { kind: 'max-ratio', ratio: 1.3 } },
    // The peak itself: a smaller idle process (less loaded at start) can grow more above idle to the same peak.
    { id: 'slow-streams-peak', label: 'Peak RSS, {streams} slow streams (20 x 50 ms)', unit: 'MB', digits: 1 },
  ],
  async start(ctx) {
    return {
      base: { label: ctx.floor.label, kind: ctx.floor.kind, pid: 0, origin: '' },
      subject: { label: 'gateway', kind: 'gateway', pid: 0, origin: '' },
    };
  },
  async measure(ctx, side): Promise<Measured> {
    const { baseline, peak, result } = await holdSlowStreams(ctx, side);
    if (result.peakOpen < 0.95 * countStreams(ctx)) {
      ctx.notes.push(`slow streams: ${side.label} had at most ${result.peakOpen} of ${countStreams(ctx)} streams open at once in one round.`);
    }
    return { 'slow-streams-rss': (peak - baseline) / MB, 'slow-streams-peak': peak / MB, non2xx: result.failed, errors: 0, requests: result.ok + result.failed };
  },
};
