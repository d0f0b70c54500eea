/**
 * Turns the rounds of every scenario into table rows (medians, ratio, target verdict, spread between
 * rounds) and prints them as an aligned text table or a Markdown table.
 */
import { getMedian, getSpread } from './stats.ts';
import { judgeTarget, type Verdict } from './targets.ts';
import type { Measured, MetricSpec } from './scenarios/types.ts';

/** The rounds one scenario measured on each side. */
export interface ScenarioRounds {
  metrics: MetricSpec[];
  baseLabel?: string;
  subjectLabel: string;
  base: Measured[];
  subject: Measured[];
}

/** One row of the results table. */
export interface ResultRow {
  label: string;
  unit: string;
  digits: number;
  baseLabel?: string;
  base?: number;
  subject: number;
  /** subject / base. */
  ratio?: number;
  /** Half the range between rounds, as a fraction of the median. */
  baseSpread?: number;
  subjectSpread: number;
  verdict?: Verdict;
}

/** Values substituted into metric labels (`{large}`: the large model count, `{streams}`: slow streams). */
export type LabelValues = Record<string, string>;

function formatLabel(label: string, values: LabelValues): string {
  return label.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The rows of one scenario: one per metric measured (a metric without values is left out), medians of its rounds. */
export function defineRows(rounds: ScenarioRounds, values: LabelValues = {}): ResultRow[] {
  const valuesOf = (measured: Measured[], id: string) => measured.map((m) => m[id]).filter((v) => v !== undefined);
  const measuredMetrics = rounds.metrics.filter((m) => valuesOf(rounds.subject, m.id).length > 0);
  return measuredMetrics.map((metric) => {
    const subjectValues = valuesOf(rounds.subject, metric.id);
    const baseValues = valuesOf(rounds.base, metric.id);
    const subject = getMedian(subjectValues);
    const base = baseValues.length ? getMedian(baseValues) : undefined;
    return {
      label: formatLabel(metric.label, values),
      unit: metric.unit,
      digits: metric.digits ?? 0,
      baseLabel: rounds.baseLabel,
      base,
      subject,
      ratio: base !== undefined && base !== 0 ? subject / base : undefined,
      baseSpread: baseValues.length ? getSpread(baseValues) : undefined,
      subjectSpread: getSpread(subjectValues),
      verdict: metric.target ? judgeTarget(metric.target, base, subject) : undefined,
    };
  });
}

function formatNumber(value: number | undefined, digits: number): string {
  if (value === undefined) return '—';
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function formatSpread(row: ResultRow): string {
  const pct = (v: number | undefined) => (v === undefined ? '—' : `±${Math.round(v * 100)}%`);
  return row.base === undefined ? pct(row.subjectSpread) : `${pct(row.baseSpread)} / ${pct(row.subjectSpread)}`;
}

const HEADERS = ['Metric', 'Reference', 'Gateway', 'Unit', 'Ratio', 'Target', 'Result', 'Spread (ref / gw)'];

/** Column names of the vendor headroom table (the floor is the reference, the vendor the subject). */
export const HEADROOM_HEADERS = ['Metric', 'Floor', 'Vendor directly', 'Unit', 'Ratio', 'Needed', 'Result', 'Spread (floor / vendor)'];

/** The cells of a row, in HEADERS order. */
export function defineCells(row: ResultRow): string[] {
  return [
    row.label,
    formatNumber(row.base, row.digits),
    formatNumber(row.subject, row.digits),
    row.unit,
    row.ratio === undefined ? '—' : `${row.ratio.toFixed(2)}x`,
    row.verdict?.text ?? '(info)',
    row.verdict ? (row.verdict.pass ? 'PASS' : 'FAIL') : '',
    formatSpread(row),
  ];
}

/** An aligned plain-text table for the terminal. */
export function formatTextTable(rows: ResultRow[], headers = HEADERS): string {
  const cells = [headers, ...rows.map(defineCells)];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** A Markdown table. */
export function formatMarkdownTable(rows: ResultRow[], headers = HEADERS): string {
  const align = headers.map((_, i) => (i === 0 ? '---' : '---:'));
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(headers), line(align), ...rows.map((row) => line(defineCells(row)))].join('\n');
}

/** `N of M targets pass`. */
export function summarizeVerdicts(rows: ResultRow[]): { passed: number; total: number } {
  const judged = rows.filter((r) => r.verdict);
  return { passed: judged.filter((r) => r.verdict!.pass).length, total: judged.length };
}
