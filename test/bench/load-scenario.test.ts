import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadSpec } from '../../bench/load.ts';
import { HarnessError } from '../../bench/run-scenario.ts';
import { headroomMessagesScenario } from '../../bench/scenarios/headroom.ts';
import { imagesScenario } from '../../bench/scenarios/images.ts';
import { chatLatencyScenario, chatThroughputScenario } from '../../bench/scenarios/passthrough.ts';
import { translatedStreamScenario } from '../../bench/scenarios/translated-stream.ts';
import type { BenchContext, Side } from '../../bench/scenarios/types.ts';
import { runAlone } from '../helpers/run-alone.ts';

/** A context whose load runner records the specs it is given and answers fixed numbers. */
function createRecordingContext(roundS: number, warmupS: number, onLoad?: (spec: LoadSpec) => void): { ctx: BenchContext; specs: LoadSpec[] } {
  const specs: LoadSpec[] = [];
  const ctx = {
    roundS,
    warmupS,
    quick: true,
    notes: [],
    tmpDir: '/tmp',
    clientKey: 'sk-client',
    env: { BENCH_VENDOR_KEY: 'sk-vendor' },
    cpu: {},
    bodies: { chat: '/b/chat.json', stream: '/b/stream.json', translatedStream: '/b/translated.json', messagesStream: '/b/messages.json', images: '/b/images.json' },
    load: async (spec: LoadSpec) => {
      specs.push(spec);
      onLoad?.(spec);
      return { requests: 100, durationS: spec.durationS, rps: 100 / spec.durationS, p50Us: 1_770_000, p99Us: 1_800_000, latencyKind: 'p50', errors: 0, non2xx: 0 };
    },
  } as unknown as BenchContext;
  return { ctx, specs };
}

const floor: Side = { label: 'floor, passthrough stream', kind: 'floor', pid: process.pid, origin: 'http://127.0.0.1:1' };
const gateway: Side = { label: 'gateway', kind: 'gateway', pid: process.pid, origin: 'http://127.0.0.1:2' };


/** Multi-process / load test: never beside another heavy test file. */
runAlone();
describe('the translated-stream and images load scenarios', () => {
  it('sends the floor the passthrough stream and the gateway the translated stream, at c=64, judged against 0.8x', async () => {
    const { ctx, specs } = createRecordingContext(10, 3);
    await translatedStreamScenario.measure(ctx, floor);
    await translatedStreamScenario.measure(ctx, gateway);
    expect(specs.map((s) => [s.url, s.bodyFile, s.connections, s.durationS])).toEqual([
      ['http://127.0.0.1:1/v1/chat/completions', '/b/stream.json', 64, 10],
      ['http://127.0.0.1:2/v1/chat/completions', '/b/translated.json', 64, 10],
    ]);
    expect(translatedStreamScenario.metrics.find((m) => m.id === 'translated-stream-rps')?.target).toEqual({ kind: 'min-ratio', ratio: 0.8 });
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

describe('the targets of issue 12 and the vendor headroom rounds', () => {
  it('judges chat c=1 latency against 1.10x and chat c=64 against 0.9x requests/s and 1.15x CPU', () => {
    expect(chatLatencyScenario.metrics.map((m) => m.target)).toEqual([{ kind: 'max-ratio', ratio: 1.1 }]);
    expect(chatThroughputScenario.metrics.map((m) => m.target)).toEqual([{ kind: 'min-ratio', ratio: 0.9 }, { kind: 'max-ratio', ratio: 1.15 }]);
  });

  it('sends the vendor the Anthropic messages stream with the vendor key and the floor the passthrough stream with the client key, in rounds of at most 5 s', async () => {
    const { ctx, specs } = createRecordingContext(10, 3);
    const vendor: Side = { label: 'vendor, directly', kind: 'vendor', pid: process.pid, origin: 'http://127.0.0.1:3', auth: { authorization: 'Bearer sk-vendor' } };
    await headroomMessagesScenario.measure(ctx, { ...floor, label: 'floor' });
    await headroomMessagesScenario.measure(ctx, vendor);
    expect(specs.map((s) => [s.url, s.bodyFile, s.connections, s.durationS, s.headers])).toEqual([
      ['http://127.0.0.1:1/v1/chat/completions', '/b/stream.json', 64, 5, { authorization: 'Bearer sk-client', 'content-type': 'application/json' }],
      [
        'http://127.0.0.1:3/v1/messages',
        '/b/messages.json',
        64,
        5,
        { authorization: 'Bearer sk-vendor', 'x-api-key': 'sk-vendor', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      ],
    ]);
  });
});

describe("a logging gateway's rounds", () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-load-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pass when the log grew by a line per request, and leave the log file empty for the next round', async () => {
    const logFile = join(dir, 'gateway-ok.log');
    writeFileSync(logFile, 'x'.repeat(5000));
    const { ctx } = createRecordingContext(1, 1, () => appendFileSync(logFile, `${'{"level":30,"msg":"request"}'.padEnd(199)}\n`.repeat(100)));
    const measured = await chatThroughputScenario.measure(ctx, { ...gateway, logFile });
    expect(measured).toMatchObject({ 'chat-c64-rps': 100, requests: 100 });
    expect(ctx.notes).toEqual([]);
    expect(readFileSync(logFile, 'utf8')).toBe('');
  });

  it('break a quick run, and note a full run, when the gateway wrote almost nothing for its requests', async () => {
    const logFile = join(dir, 'gateway-silent.log');
    writeFileSync(logFile, '');
    const grow = () => appendFileSync(logFile, 'x'.repeat(9_999));
    const quick = createRecordingContext(1, 1, grow).ctx;
    await expect(chatThroughputScenario.measure(quick, { ...gateway, logFile })).rejects.toThrow(HarnessError);
    const full = createRecordingContext(1, 1, grow).ctx;
    full.quick = false;
    await chatThroughputScenario.measure(full, { ...gateway, logFile });
    expect(full.notes).toEqual(['chat-c64: gateway logged 9999 bytes for 100 requests in a round: its request log is not on']);
  });
});
