/**
 * What translating costs before any gateway work: the translated stream's request through a second floor
 * process, which translates it the barest way (bench/floor-translate.ts), against the shared floor's
 * passthrough stream, the translated row's own reference. Informational rows, no target: they show how far
 * the translated row's target (0.8x the passthrough stream) is from what translation alone allows.
 */
import { MAIN_COUNT } from '../config.ts';
import { checkChatStreams } from './checks.ts';
import { defineLoadScenario } from './load-scenario.ts';
import { CHAT_PATH, defineStreamRequest } from './passthrough.ts';
import type { BenchContext, ScenarioPair, Side } from './types.ts';

/** The subject is a floor of its own, started for this scenario; the shared floor is the reference. */
async function startTranslatingFloor(ctx: BenchContext): Promise<ScenarioPair> {
  if (ctx.floor.kind !== 'floor') throw new Error('translating-floor compares two floors: it does not run with --baseline');
  const floor = await ctx.startProxy('floor', MAIN_COUNT);
  const subject: Side = { label: 'floor, translating', kind: 'floor', pid: floor.proc.pid, origin: floor.origin };
  try {
    await checkChatStreams(ctx, 'translating-floor', { side: ctx.floor, bodyFile: ctx.bodies.stream }, { side: subject, bodyFile: ctx.bodies.translatedStream });
  } catch (error) {
    await floor.stop();
    throw error;
  }
  return { base: { ...ctx.floor, label: 'floor, passthrough stream' }, subject, close: () => floor.stop() };
}

/** The bare translating floor's stream at c=64 beside the floor's passthrough stream. */
export const translatingFloorScenario = defineLoadScenario({
  id: 'translating-floor',
  title: 'Translated stream c=64 through a bare translating floor (no gateway work) vs the floor passthrough stream',
  connections: 64,
  mustSucceed: true,
  request: (ctx, side) =>
    side.pid === ctx.floor.pid ? defineStreamRequest(ctx) : { path: CHAT_PATH, bodyFile: ctx.bodies.translatedStream, contentType: 'application/json' },
  rps: { id: 'translating-floor-rps', label: 'Bare translating floor: translated stream c=64 (ref: passthrough stream), requests/s', unit: 'req/s' },
  cpu: { id: 'translating-floor-cpu', label: 'Bare translating floor: translated stream c=64 (ref: passthrough stream), CPU per request', unit: 'µs' },
  start: startTranslatingFloor,
});
