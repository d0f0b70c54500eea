import { el } from './dom.ts';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 300;
const HEIGHT = 80;

/** The charts whose data table the operator opened: still open after the page's live refresh. */
const opened = new Set<string>();

/** One line of a chart: its name and one value per minute, oldest first. */
export interface ChartLine {
  label: string;
  values: number[];
}

/** An SVG element with attributes (never markup: names and numbers only). */
function svg(tag: string, attributes: Record<string, string | number>, text?: string): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** The points of a line scaled into the chart (the top is `top`). */
function toPoints(values: number[], top: number): string {
  const step = WIDTH / Math.max(1, values.length - 1);
  return values.map((value, i) => `${(i * step).toFixed(1)},${(HEIGHT - (value / top) * HEIGHT).toFixed(1)}`).join(' ');
}

/** The chart's data as a table (minutes ago and each line's value): what a screen reader, or a test, reads. */
function renderDataTable(id: string, lines: ChartLine[], format: (value: number) => string): HTMLElement {
  const count = lines[0]?.values.length ?? 0;
  const rows = Array.from({ length: count }, (_, i) => el('tr', {}, el('th', { scope: 'row' }, String(i - count + 1)), ...lines.map((line) => el('td', { class: 'num' }, format(line.values[i])))));
  return el(
    'details',
    {
      ...(opened.has(id) ? { open: true } : {}),
      ontoggle: (event) => ((event.target as HTMLDetailsElement).open ? opened.add(id) : opened.delete(id)),
    },
    el('summary', {}, 'Data'),
    el('table', { id: `${id}-data`, class: 'chart-data' }, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Minute'), ...lines.map((line) => el('th', { scope: 'col' }, line.label)))), el('tbody', {}, ...rows)),
  );
}

/**
 * A line chart of the last hour, minute by minute, drawn as SVG (attributes only, so the page's
 * `default-src 'self'` policy holds), with the latest values in its caption and its data in a table beside it.
 */
export function renderLineChart(id: string, title: string, lines: ChartLine[], format: (value: number) => string): HTMLElement {
  const top = Math.max(0, ...lines.flatMap((line) => line.values)) || 1;
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: 'img', 'aria-labelledby': `${id}-title` });
  chart.append(svg('line', { x1: 0, y1: HEIGHT, x2: WIDTH, y2: HEIGHT, class: 'axis' }), svg('text', { x: 2, y: 10, class: 'top' }, format(top)));
  lines.forEach((line, i) => chart.append(svg('polyline', { points: toPoints(line.values, top), class: `line line-${i}` })));
  const latest = lines.map((line) => `${line.label} ${format(line.values.at(-1) ?? 0)}`).join(', ');
  return el('figure', { class: 'chart', id }, el('figcaption', { id: `${id}-title` }, `${title}: ${latest}`), chart, renderDataTable(id, lines, format));
}
