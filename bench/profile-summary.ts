/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and lists the functions with the most self time.
 * Usage as a script: `node --import tsx bench/profile-summary.ts FILE [TOP]`.
 */
import { readFileSync } from 'node:fs';

/** The parts of a V8 CPU profile this reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number }; hitCount?: number; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** One function's self time. */
export interface SelfTime {
  name: string;
  /** `file:line` (1-based), or '' for native frames. */
  where: string;
  selfMs: number;
  /** Share of the busy time, idle excluded (0-1). */
  share: number;
}

/** Frames that are not work: idle time is left out of the summary and of the shares. */
const IDLE = '(idle)';

/**
 * The time one sample stands for (µs): the median gap between samples. Every sample counts this much, not its
 * own gap: on a busy machine a gap also holds the time the process waited for a CPU (p99 22 ms against a
 * 1 ms interval in a run at load average 17), and a function sampled once after such a wait would get all of it.
 */
export function getSampleInterval(profile: CpuProfile): number {
  const deltas = (profile.timeDeltas ?? []).filter((d) => d > 0).sort((a, b) => a - b);
  return deltas.length ? deltas[(deltas.length - 1) >> 1] : 0;
}

function shortenUrl(url: string): string {
  const at = url.indexOf('/node_modules/');
  if (at !== -1) return url.slice(at + 1);
  return url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
}

/** Busy self time per function (grouped by name and location), largest first: its samples times {@link getSampleInterval}. */
export function summarizeCpuProfile(profile: CpuProfile, top = 25): SelfTime[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, { name: string; where: string; us: number }>();
  const us = getSampleInterval(profile);
  let total = 0;
  for (const sample of profile.samples ?? []) {
    const node = byNode.get(sample);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === IDLE) continue;
    total += us;
    const where = url ? `${shortenUrl(url)}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const entry = selfUs.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
    entry.us += us;
    selfUs.set(key, entry);
  }
  return [...selfUs.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, share: total ? e.us / total : 0 }));
}

/** The summary as aligned text lines. */
export function formatSelfTimes(rows: SelfTime[]): string {
  if (rows.length === 0) return '(no busy samples)';
  return rows
    .map((r) => `${(r.share * 100).toFixed(1).padStart(5)}%  ${r.selfMs.toFixed(0).padStart(7)} ms  ${r.name}  ${r.where}`)
    .join('\n');
}

/** Busy (non-idle) sampled time of a profile, in ms. */
export function getBusyMs(profile: CpuProfile): number {
  return summarizeCpuProfile(profile, Number.MAX_SAFE_INTEGER).reduce((sum, row) => sum + row.selfMs, 0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profile-summary.ts FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  console.log(formatSelfTimes(summarizeCpuProfile(profile, Number(top ?? 25))));
}
