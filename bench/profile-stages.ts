/**
 * Splits a gateway CPU profile into the stages of a request (parse, validation, auth, limits, usage, metrics, log, write,
 * the vendor call, Node's HTTP server): each busy sample goes to the innermost frame of the stack that is the
 * gateway's own code or a library's, mapped back to its TypeScript source through the bundle's source map
 * (`dist/gateway.mjs.map`, written by scripts/bundle.ts). Stacks of Node internals alone are the HTTP server
 * and sockets. Used by `npm run bench -- --profile DIR` (bench/run.ts), which writes bench/PROFILE.md.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { getSampleInterval, type CpuProfile } from './profile-summary.ts';

/** One stage's share of the busy time. */
export interface StageTime {
  stage: string;
  ms: number;
  /** Share of the busy time, idle excluded (0-1). */
  share: number;
}

/** The stage of what runs once, at start (config compile, module loading): left out of the per-request split. */
export const START_UP = 'start-up (not per request)';

/** Stage of a frame by its source path (the first rule that matches wins); undefined: look further out. */
const SOURCE_RULES: [RegExp, string][] = [
  [/(node_modules\/(yaml|ajv|ajv-formats)\/|src\/(config|codegen)\/|^node:internal\/modules\/)/, START_UP],
  [/node_modules\/(pino|sonic-boom|pino-std-serializers|fast-redact|thread-stream)\//, 'log line'],
  [/src\/(logger|cli\/log-request|cli\/format-request-line)\.ts$/, 'log line'],
  [/node_modules\/undici\//, 'vendor call (undici)'],
  [/src\/runtime\/(read-body|json-bytes|drain-request|check-request-head)\.ts$/, 'read and parse body'],
  [/(src\/runtime\/validate\.ts|generated\/validators)/, 'validation'],
  [/src\/runtime\/(auth|secrets)\.ts$/, 'auth'],
  [/src\/limits\//, 'limits'],
  [/(src\/metrics\/|node_modules\/(prom-client|tdigest|bintrees)\/)/, 'metrics'],
  [/src\/spend\//, 'spend'],
  [/src\/runtime\/usage-event\.ts$/, 'usage event'],
  [/src\/runtime\/(json-usage|read-tail-object|stream-tap|estimate-usage)\.ts$/, 'usage'],
  [/src\/runtime\/(passthrough|respond|collect-chunks)\.ts$/, 'write answer'],
  [/src\/runtime\/(vendor-(call|error|answer|failure)|body-reading)\.ts$/, 'vendor call (gateway)'],
  [/src\/(runtime|routing)\//, 'request context, routing'],
  [/src\//, 'other gateway code'],
  [/node_modules\//, 'other libraries'],
];

const NATIVE_STAGES = new Map([['(garbage collector)', 'garbage collector'], ['(program)', 'V8 and native']]);

/**
 * The stage of bundle code whose source map is gone (the bundle was rebuilt since the profile, so its chunk
 * names changed): said as such, not passed on to the Node frames calling it, which would put the gateway's
 * own work under "Node HTTP server".
 */
export const UNMAPPED = 'gateway bundle, source map missing';

/**
 * Maps a frame's bundle location to its source path, with one parsed source map per bundle file;
 * {@link UNMAPPED} when the bundle file has no readable map.
 */
function createSourceFinder(): (url: string, line: number, column: number) => string {
  const maps = new Map<string, SourceMap | null>();
  return (url, line, column) => {
    if (!url.endsWith('.mjs') || !url.includes('/dist/')) return url;
    let map = maps.get(url);
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(url, map);
    }
    if (!map) return UNMAPPED;
    const entry = map.findEntry(line, column) as { originalSource?: string } | undefined;
    return entry?.originalSource ?? url;
  };
}

function findStage(source: string): string | undefined {
  if (source === UNMAPPED) return UNMAPPED;
  for (const [pattern, stage] of SOURCE_RULES) if (pattern.test(source)) return stage;
  return undefined;
}

/** Busy time per stage (samples times the sampling interval), largest first; shares are of the busy time outside {@link START_UP}. */
export function splitProfileByStage(profile: CpuProfile): StageTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const findSource = createSourceFinder();
  const stageOfNode = new Map<number, string>();
  const stageOf = (id: number): string => {
    const known = stageOfNode.get(id);
    if (known) return known;
    const { functionName, url, lineNumber, columnNumber = 0 } = byId.get(id)!.callFrame;
    let stage = NATIVE_STAGES.get(functionName) ?? (url ? findStage(findSource(url, lineNumber, columnNumber)) : undefined);
    if (!stage) stage = parent.has(id) ? stageOf(parent.get(id)!) : 'Node HTTP server, sockets, timers';
    stageOfNode.set(id, stage);
    return stage;
  };
  const totals = new Map<string, number>();
  let busy = 0;
  const us = getSampleInterval(profile);
  for (const sample of profile.samples ?? []) {
    const node = byId.get(sample);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const stage = stageOf(sample);
    if (stage !== START_UP) busy += us;
    totals.set(stage, (totals.get(stage) ?? 0) + us);
  }
  return [...totals].sort((a, b) => b[1] - a[1]).map(([stage, us]) => ({ stage, ms: us / 1000, share: busy && stage !== START_UP ? us / busy : 0 }));
}

/** The split as aligned text lines. */
export function formatStageTimes(rows: StageTime[]): string {
  return rows.map((r) => `${r.stage === START_UP ? '     ' : `${(r.share * 100).toFixed(1).padStart(5)}%`}  ${r.ms.toFixed(0).padStart(7)} ms  ${r.stage}`).join('\n');
}
