/**
 * Streaming time to first byte at an undici client: c=1, sequential requests (250 per second of a round's
 * length: 2,500 in a full run's 10 s rounds, about 2 s of streams, more when a run lengthens its rounds),
 * after warm-up rounds that run until the p50 settles, as the load scenarios' do.
 */
import { MAX_WARMUP_ROUNDS, warmUntilSettled } from '../warm-up.ts';
import { readLastJsonLine, runChild } from '../run-child.ts';
import type { BenchContext, Measured, Scenario, Side } from './types.ts';

/** Requests measured per second of a round's length (`--duration`). */
const REQUESTS_PER_SECOND = 250;
/** Requests in one warm-up round: a fresh process's first hundreds of streams still compile and size its heap. */
const WARMUP_ROUND_REQUESTS = 1000;

interface TtfbResult {
  p50Us: number;
  p99Us: number;
  count: number;
  non2xx: number;
}

async function runTtfbClient(ctx: BenchContext, side: Side, count: number, warmup: number): Promise<TtfbResult> {
  const args = [
    '--import', 'tsx', 'bench/clients/ttfb-client.ts',
    '--url', `${side.origin}/v1/chat/completions`,
    '--key', ctx.clientKey,
    '--body-file', ctx.bodies.stream,
    '--count', String(count),
    '--warmup', String(warmup),
  ];
  return readLastJsonLine<TtfbResult>(await runChild(process.execPath, args, ctx.cpu.load));
}

/** TTFB p50 of streamed chat; the gateway may add at most 100 µs to the floor's. */
export const streamTtfbScenario: Scenario = {
  id: 'stream-ttfb',
  title: 'Streaming TTFB at an undici client, c=1',
  mustSucceed: true,
  lengthens: true,
  metrics: [
    { id: 'stream-ttfb-p50', label: 'Streaming TTFB c=1 (undici client), p50', unit: 'µs', target: { kind: 'max-over', amount: 100, unit: 'µs' } },
  ],
  async warmup(ctx, side) {
    if (ctx.quick) {
      await runTtfbClient(ctx, side, 0, 20);
      return;
    }
    await warmUntilSettled(async () => (await runTtfbClient(ctx, side, WARMUP_ROUND_REQUESTS, 20)).p50Us, MAX_WARMUP_ROUNDS);
  },
  async measure(ctx, side): Promise<Measured> {
    const result = await runTtfbClient(ctx, side, ctx.quick ? 50 : Math.round(REQUESTS_PER_SECOND * ctx.roundS), ctx.quick ? 5 : 20);
    return { 'stream-ttfb-p50': result.p50Us, non2xx: result.non2xx, errors: 0, requests: result.count };
  },
};
