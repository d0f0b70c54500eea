import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../../scripts/bundle.ts';
import { splitProfileByStage, START_UP, UNMAPPED } from '../../bench/profile-stages.ts';
import type { CpuProfile } from '../../bench/profile-summary.ts';

type Frame = [functionName: string, url: string, line?: number, column?: number];

/** A profile of one stack per entry (root first), each sampled `count` times at 1 ms apart. */
function buildProfile(stacks: { frames: Frame[]; count: number }[]): CpuProfile {
  const nodes: CpuProfile['nodes'] = [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [] }];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const { frames, count } of stacks) {
    let parent = nodes[0];
    for (const [functionName, url, lineNumber = 0, columnNumber = 0] of frames) {
      const node = { id: nodes.length + 1, callFrame: { functionName, url, lineNumber, columnNumber }, children: [] as number[] };
      nodes.push(node);
      parent.children!.push(node.id);
      parent = node;
    }
    for (let i = 0; i < count; i++) {
      samples.push(parent.id);
      timeDeltas.push(1000);
    }
  }
  return { nodes, samples, timeDeltas };
}

const shareOf = (rows: ReturnType<typeof splitProfileByStage>, stage: string) => rows.find((r) => r.stage === stage)?.share;

describe('the profile split by request stage', () => {
  it('gives each sample to the innermost gateway or library frame, Node internals alone to the HTTP server, start-up to no share', () => {
    const rows = splitProfileByStage(
      buildProfile([
        { frames: [['parserOnIncoming', 'node:_http_server'], ['admit', 'file:///app/src/limits/limiter.ts'], ['get', 'node:internal/map']], count: 3 },
        { frames: [['serve', 'file:///app/src/runtime/handle-request.ts'], ['request', 'file:///app/node_modules/undici/lib/api/request.js'], ['writev', '']], count: 5 },
        { frames: [['parserOnIncoming', 'node:_http_server'], ['emit', 'node:events']], count: 1 },
        { frames: [['(garbage collector)', '']], count: 1 },
        { frames: [['compile', 'file:///app/node_modules/ajv/dist/core.js']], count: 50 },
        { frames: [['(idle)', '']], count: 90 },
      ]),
    );
    expect(shareOf(rows, 'limits')).toBeCloseTo(0.3);
    expect(shareOf(rows, 'vendor call (undici)')).toBeCloseTo(0.5);
    expect(shareOf(rows, 'Node HTTP server, sockets, timers')).toBeCloseTo(0.1);
    expect(shareOf(rows, 'garbage collector')).toBeCloseTo(0.1);
    expect(rows.find((r) => r.stage === START_UP)).toMatchObject({ ms: 50, share: 0 });
    expect(rows.map((r) => r.stage)).not.toContain('(idle)');
    expect(rows[0].stage).toBe(START_UP);
  });

  it('counts reading the usage object of an answer under usage, wherever it is read', () => {
    const rows = splitProfileByStage(
      buildProfile([
        { frames: [['get usage', 'file:///app/src/runtime/gateway-context.ts'], ['readUsageFromJson', 'file:///app/src/runtime/json-usage.ts']], count: 1 },
        { frames: [['readUsageFromJson', 'file:///app/src/runtime/json-usage.ts'], ['readTailObject', 'file:///app/src/runtime/read-tail-object.ts']], count: 3 },
      ]),
    );
    expect(shareOf(rows, 'usage')).toBeCloseTo(1);
  });

  describe('through a bundle', () => {
    const dirs: string[] = [];
    afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

    it('maps a frame of dist/*.mjs to its TypeScript source with the bundle\'s source map', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'profile-stages-'));
      dirs.push(dir);
      await mkdir(join(dir, 'src', 'runtime'), { recursive: true });
      await writeFile(join(dir, 'src', 'runtime', 'auth.ts'), 'export function authenticate(k: string): number {\n  return k.length * 2;\n}\n');
      await writeFile(join(dir, 'src', 'main.ts'), "import { authenticate } from './runtime/auth.ts';\nconsole.log(authenticate(process.argv[2] ?? ''));\n");
      const outfile = join(dir, 'dist', 'gateway.mjs');
      await bundleEntry(join(dir, 'src', 'main.ts'), outfile);
      const { readFile } = await import('node:fs/promises');
      const lines = (await readFile(outfile, 'utf8')).split('\n');
      const line = lines.findIndex((l) => l.includes('k.length * 2'));
      const url = pathToFileURL(outfile).href;
      const rows = splitProfileByStage(buildProfile([{ frames: [['authenticate', url, line, lines[line].indexOf('return')]], count: 1 }]));
      expect(rows).toEqual([{ stage: 'auth', ms: 1, share: 1 }]);
    });

    it('says a bundle frame whose source map is gone is unmapped, instead of giving it to the Node frames that call it', () => {
      const url = pathToFileURL(join(tmpdir(), 'no-such-bundle', 'dist', 'gateway-chunks', 'chunk-GONE.mjs')).href;
      const rows = splitProfileByStage(
        buildProfile([{ frames: [['parserOnIncoming', 'node:_http_server'], ['readLog', url, 3, 10], ['get', 'node:internal/map']], count: 1 }]),
      );
      expect(rows).toEqual([{ stage: UNMAPPED, ms: 1, share: 1 }]);
    });
  });
});
