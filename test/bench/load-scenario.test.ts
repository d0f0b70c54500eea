import { describe, expect, it } from 'vitest';
import type { LoadSpec } from '../../bench/load.ts';
import { imagesScenario } from '../../bench/scenarios/images.ts';
import { translatedStreamScenario } from '../../bench/scenarios/translated-stream.ts';
import type { BenchContext, Side } from '../../bench/scenarios/types.ts';

/** A context whose load runner records the specs it is given and answers fixed numbers. */
function createRecordingContext(roundS: number, warmupS: number): { ctx: BenchContext; specs: LoadSpec[] } {
  const specs: LoadSpec[] = [];
  const ctx = {
    roundS,
    warmupS,
    tmpDir: '/tmp',
    clientKey: 'sk-client',
    cpu: {},
    bodies: { stream: '/b/stream.json', translatedStream: '/b/translated.json', images: '/b/images.json' },
    load: async (spec: LoadSpec) => {
      specs.push(spec);
      return { requests: 100, durationS: spec.durationS, rps: 100 / spec.durationS, p50Us: 1_770_000, p99Us: 1_800_000, latencyKind: 'p50', errors: 0, non2xx: 0 };
    },
  } as unknown as BenchContext;
  return { ctx, specs };
}

const floor: Side = { label: 'floor, passthrough stream', kind: 'floor', pid: process.pid, origin: 'http://127.0.0.1:1' };
const gateway: Side = { label: 'gateway', kind: 'gateway', pid: process.pid, origin: 'http://127.0.0.1:2' };

describe('the translated-stream and images load scenarios', () => {
  it('sends the floor the passthrough stream and the gateway the translated stream, at c=64, judged against 0.7x', async () => {
    const { ctx, specs } = createRecordingContext(10, 3);
    await translatedStreamScenario.measure(ctx, floor);
    await translatedStreamScenario.measure(ctx, gateway);
    expect(specs.map((s) => [s.url, s.bodyFile, s.connections, s.durationS])).toEqual([
      ['http://127.0.0.1:1/v1/chat/completions', '/b/stream.json', 64, 10],
      ['http://127.0.0.1:2/v1/chat/completions', '/b/translated.json', 64, 10],
    ]);
    expect(translatedStreamScenario.metrics.find((m) => m.id === 'translated-stream-rps')?.target).toEqual({ kind: 'min-ratio', ratio: 0.7 });
  });

  it('gives image requests of about two seconds warm-ups and rounds of at least 4 s, at c=16, with no target', async () => {
    const { ctx, specs } = createRecordingContext(1, 1);
    await imagesScenario.warmup!(ctx, gateway);
    const measured = await imagesScenario.measure(ctx, gateway);
    expect(specs.map((s) => [s.url, s.bodyFile, s.connections, s.durationS])).toEqual([
      ['http://127.0.0.1:2/v1/images/generations', '/b/images.json', 16, 4],
      ['http://127.0.0.1:2/v1/images/generations', '/b/images.json', 16, 4],
    ]);
    expect(measured).toMatchObject({ 'images-rps': 25, 'images-p50': 1770, requests: 100 });
    expect(imagesScenario.metrics.every((m) => m.target === undefined)).toBe(true);
    const { ctx: full, specs: fullSpecs } = createRecordingContext(10, 3);
    await imagesScenario.measure(full, gateway);
    expect(fullSpecs[0].durationS).toBe(10);
  });
});
