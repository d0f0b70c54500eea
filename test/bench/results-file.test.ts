import { describe, expect, it } from 'vitest';
import { defineRows } from '../../bench/report.ts';
import { formatResults, PENDING_TARGETS } from '../../bench/results-file.ts';

const RUN = {
  date: new Date('2026-01-02T03:04:05Z'),
  loadTool: 'wrk',
  pinned: true,
  rounds: 5,
  roundS: 10,
  warmupS: 3,
  loadAverage: [0.5, 0.75] as [number, number],
  minutes: 12.3,
};

describe('RESULTS.md', () => {
  it('holds the table, the machine, the date, the rerun command, what is not measured yet and the notes', () => {
    const rows = [
      ...defineRows({
        metrics: [{ id: 'rps', label: 'Chat c=64 requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.9 } }],
        baseLabel: 'floor',
        subjectLabel: 'gateway',
        base: [{ rps: 100 }],
        subject: [{ rps: 95 }],
      }),
      ...defineRows({
        metrics: [{ id: 'cpu', label: 'CPU at 10,000 models', unit: 'µs', target: { kind: 'max-ratio', ratio: 1.05 } }],
        baseLabel: 'gateway, 10 models',
        subjectLabel: 'gateway, 10,000 models',
        base: [{ cpu: 100 }],
        subject: [{ cpu: 110 }],
      }),
    ];
    const text = formatResults(rows, RUN, ['a note']);
    expect(text).toContain('on 2026-01-02 03:04 UTC (12.3 min)');
    expect(text).toContain('Rerun: `npm run bench`');
    expect(text).toMatch(/Machine: \d+ CPUs .*Node v\d+.*load from wrk, proxy under test pinned to CPU 1/);
    expect(text).toContain('Load average (1 min) at start / end: 0.50 / 0.75.');
    expect(text).toContain('| Chat c=64 requests/s | 100 | 95 | req/s | 0.95x | >= 0.9x | PASS | ±0% / ±0% |');
    expect(text).toContain('except in "CPU at 10,000 models" (gateway, 10 models).');
    expect(text).toContain('1 of 2 targets pass.');
    for (const pending of PENDING_TARGETS) expect(text).toContain(`- ${pending}`);
    expect(text).toContain('Notes:\n- a note');
  });
});
