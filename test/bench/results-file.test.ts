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
    const text = formatResults(rows, RUN, ['a note'], ['Some target: added with its feature.']);
    expect(text).toContain('on 2026-01-02 03:04 UTC (12.3 min)');
    expect(text).toContain('Rerun: `npm run bench`');
    expect(text).toMatch(/Machine: \d+ CPUs .*Node v\d+.*load from wrk, proxy under test pinned to CPU 1/);
    expect(text).toContain('Load average (1 min) at start / end: 0.50 / 0.75.');
    expect(text).toContain('| Chat c=64 requests/s | 100 | 95 | req/s | 0.95x | >= 0.9x | PASS | ±0% / ±0% |');
    expect(text).toContain('except in "CPU at 10,000 models" (gateway, 10 models).');
    expect(text).toContain('1 of 2 targets pass.');
    expect(text).toContain('2 targets pass.\n\nNot measured yet:\n- Some target: added with its feature.\n\nNotes:\n- a note\n');
  });

  it('has no "Not measured yet" section once every target of the issue is measured', () => {
    expect(PENDING_TARGETS).toEqual([]);
    const rows = defineRows({ metrics: [{ id: 'rps', label: 'Chat c=64 requests/s', unit: 'req/s' }], baseLabel: 'floor', subjectLabel: 'gateway', base: [{ rps: 1 }], subject: [{ rps: 1 }] });
    const text = formatResults(rows, RUN, []);
    expect(text).not.toContain('Not measured yet');
    expect(text.endsWith('0 of 0 targets pass.\n')).toBe(true);
  });

  it('names the passthrough stream as the reference of the translated stream and leaves a floorless row without one', () => {
    const rows = [
      ...defineRows({
        metrics: [{ id: 'rps', label: 'Translated stream c=64, requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.7 } }],
        baseLabel: 'floor, passthrough stream',
        subjectLabel: 'gateway',
        base: [{ rps: 1000 }],
        subject: [{ rps: 650 }],
      }),
      ...defineRows({ metrics: [{ id: 'img', label: 'Images c=16, requests/s', unit: 'req/s', digits: 1 }], subjectLabel: 'gateway', base: [], subject: [{ img: 8 }] }),
    ];
    const text = formatResults(rows, RUN, []);
    expect(text).toContain('| Translated stream c=64, requests/s | 1,000 | 650 | req/s | 0.65x | >= 0.7x | FAIL | ±0% / ±0% |');
    expect(text).toContain('| Images c=16, requests/s | — | 8.0 | req/s | — | (info) |  | ±0% |');
    expect(text).toContain('except in "Translated stream c=64, requests/s" (floor, passthrough stream).');
  });
});
