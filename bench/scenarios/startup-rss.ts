/**
 * Start-up RSS for configs of 10, 1,000 and 10,000 models (10 and 1,000 in quick mode): a fresh process
 * per count, RSS read 500 ms after it first answers /healthz. Informational: the issue sets no target.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readRssBytes } from '../processes.ts';
import type { ProxyKind } from '../proxies.ts';
import type { BenchContext, Measured, MetricSpec, Scenario } from './types.ts';

const COUNTS = [10, 1000, 10_000];
const MB = 1024 * 1024;

function listCounts(ctx: BenchContext): number[] {
  return COUNTS.filter((count) => ctx.configs.has(count));
}

/** Start-up RSS of the floor (base) and the gateway (subject) per model count. */
export const startupRssScenario: Scenario = {
  id: 'startup-rss',
  title: 'Start-up RSS by model count',
  mustSucceed: true,
  metrics: COUNTS.map(
    (count): MetricSpec => ({ id: `startup-rss-${count}`, label: `Start-up RSS, ${count.toLocaleString('en-US')} models`, unit: 'MB', digits: 1 }),
  ),
  rounds: (ctx) => (ctx.quick ? 1 : 3),
  async start(ctx) {
    return {
      base: { label: ctx.floor.label, kind: ctx.floor.kind, pid: 0, origin: '' },
      subject: { label: 'gateway', kind: 'gateway', pid: 0, origin: '' },
    };
  },
  async measure(ctx, side): Promise<Measured> {
    const measured: Measured = {};
    for (const count of listCounts(ctx)) {
      const proxy = await ctx.startProxy(side.kind as ProxyKind, count);
      await sleep(500);
      measured[`startup-rss-${count}`] = readRssBytes(proxy.proc.pid) / MB;
      await proxy.stop();
    }
    return measured;
  },
};
