import { describe, expect, it } from 'vitest';
import { getBusyMs, summarizeCpuProfile, type CpuProfile } from '../../bench/profile-summary.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

describe('cpu profile summary', () => {
  it('sums self time per function from samples and time deltas, idle left out, largest first', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        { id: 2, callFrame: frame('serve', 'file:///repo/src/runtime/handle-request.ts', 9) },
        { id: 3, callFrame: frame('JSON.parse') },
        { id: 4, callFrame: frame('serve', 'file:///repo/src/runtime/handle-request.ts', 9) },
      ],
      samples: [1, 2, 3, 4, 2, 1],
      timeDeltas: [5000, 1000, 2000, 1000, 1000, 5000],
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
});
