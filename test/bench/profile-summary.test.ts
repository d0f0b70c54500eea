import { describe, expect, it } from 'vitest';
import { getBusyMs, getSampleInterval, summarizeCpuProfile, type CpuProfile } from '../../bench/profile-summary.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

describe('cpu profile summary', () => {
  it('counts each sample as one sampling interval, idle left out, largest first', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        { id: 2, callFrame: frame('serve', 'file:///repo/src/runtime/handle-request.ts', 9) },
        { id: 3, callFrame: frame('JSON.parse') },
        { id: 4, callFrame: frame('serve', 'file:///repo/src/runtime/handle-request.ts', 9) },
      ],
      samples: [1, 2, 3, 3, 4, 2, 1],
      timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000],
    };
    const rows = summarizeCpuProfile(profile);
    expect(rows.map((r) => [r.name, r.selfMs])).toEqual([
      ['serve', 3],
      ['JSON.parse', 2],
    ]);
    expect(rows[0].where).toMatch(/handle-request\.ts:10$/);
    expect(rows[0].share).toBeCloseTo(0.6);
    expect(getBusyMs(profile)).toBe(5);
  });

  it('gives a sample taken after the process waited for a CPU one interval, not the whole wait', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('serve', 'file:///repo/src/runtime/handle-request.ts', 9) },
        { id: 2, callFrame: frame('limitsOf', 'file:///repo/src/limits/limiter.ts', 57) },
      ],
      samples: [1, 1, 1, 2, 1],
      timeDeltas: [1000, 1200, 900, 25_000, 1100],
    };
    expect(getSampleInterval(profile)).toBe(1100);
    const rows = summarizeCpuProfile(profile);
    expect(rows.map((r) => [r.name, r.share])).toEqual([
      ['serve', 0.8],
      ['limitsOf', 0.2],
    ]);
    expect(getBusyMs(profile)).toBeCloseTo(5.5);
  });
});
