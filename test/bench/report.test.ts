import { describe, expect, it } from 'vitest';
import { defineCells, defineRows, formatMarkdownTable, summarizeVerdicts } from '../../bench/report.ts';
import type { MetricSpec } from '../../bench/scenarios/types.ts';

const RPS: MetricSpec = { id: 'rps', label: 'Requests/s at {large} models', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.9 } };
const RSS: MetricSpec = { id: 'rss', label: 'RSS', unit: 'MB', digits: 1 };
const UNMEASURED: MetricSpec = { id: 'never', label: 'Never measured', unit: 'ms' };

describe('bench report', () => {
  it('reports the medians of the rounds, their ratio and the verdict of the target', () => {
    const [row] = defineRows(
      {
        metrics: [RPS],
        baseLabel: 'floor',
        subjectLabel: 'gateway',
        base: [{ rps: 10_000 }, { rps: 9_000 }, { rps: 11_000 }],
        subject: [{ rps: 9_500 }, { rps: 8_000 }, { rps: 9_600 }],
      },
      { large: '10,000' },
    );
    expect(row.label).toBe('Requests/s at 10,000 models');
    expect(row.base).toBe(10_000);
    expect(row.subject).toBe(9_500);
    expect(row.ratio).toBeCloseTo(0.95);
    expect(row.verdict).toEqual({ pass: true, text: '>= 0.9x' });
    expect(defineCells(row)).toEqual(['Requests/s at 10,000 models', '10,000', '9,500', 'req/s', '0.95x', '>= 0.9x', 'PASS', '±10% / ±8%']);
  });

  it('leaves out metrics no round measured and marks rows without a target as information', () => {
    const rows = defineRows({ metrics: [RSS, UNMEASURED], baseLabel: 'floor', subjectLabel: 'gateway', base: [{ rss: 10 }], subject: [{ rss: 12.25 }] });
    expect(rows).toHaveLength(1);
    expect(defineCells(rows[0]).slice(1, 7)).toEqual(['10.0', '12.3', 'MB', '1.23x', '(info)', '']);
    expect(summarizeVerdicts(rows)).toEqual({ passed: 0, total: 0 });
  });

  it('prints a Markdown table with one line per row under the header', () => {
    const rows = defineRows({ metrics: [RPS], baseLabel: 'floor', subjectLabel: 'gateway', base: [{ rps: 100 }], subject: [{ rps: 50 }] });
    const lines = formatMarkdownTable(rows).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('| Metric | Reference | Gateway | Unit | Ratio | Target | Result | Spread (ref / gw) |');
    expect(lines[2]).toBe('| Requests/s at {large} models | 100 | 50 | req/s | 0.50x | >= 0.9x | FAIL | ±0% / ±0% |');
  });
});
