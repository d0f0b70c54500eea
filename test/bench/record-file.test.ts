import { describe, expect, it } from 'vitest';
import { getRecordFile } from '../../bench/record-file.ts';

describe('getRecordFile', () => {
  it('rewrites RESULTS.md after a whole measurement and BASELINE.md after a whole --baseline run', () => {
    expect(getRecordFile({ quick: false })).toBe('bench/RESULTS.md');
    expect(getRecordFile({ quick: false, baseline: 'HEAD~1' })).toBe('bench/BASELINE.md');
  });

  it('writes no record for a quick run or for some rows only (--only), with or without --baseline', () => {
    expect(getRecordFile({ quick: true })).toBeUndefined();
    expect(getRecordFile({ quick: true, baseline: 'HEAD~1' })).toBeUndefined();
    expect(getRecordFile({ quick: false, only: ['chat-c64'] })).toBeUndefined();
    expect(getRecordFile({ quick: false, only: ['chat-c64'], baseline: 'HEAD~1' })).toBeUndefined();
  });
});
