import { callAdmin, readError, type Answer } from './api.ts';
import { el, table } from './dom.ts';
import { renderLineChart } from './line-chart.ts';
import { cellsOf, FIELDS, formatClock } from './usage-cells.ts';

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

function rowOf(name: string, s: any): (string | number)[] {
  return [name, s.requests, round(s.requestsPerSecond, 2), `${round(s.errorRate * 100)} %`, round(s.p50LatencyMs), round(s.p95LatencyMs), round(s.p50TtftMs), round(s.tokensPerMinute), round(s.spendUsd, 6)];
}

const HEADERS = ['', 'Requests (1 h)', 'Requests/s (1 min)', 'Errors', 'p50 ms', 'p95 ms', 'TTFT p50 ms', 'Tokens/min', 'Spend USD'];

/** The group the charts show (kept across the live refreshes): `total`, `style:NAME` or `model:NAME`. */
let scope = 'total';
/** The instance shown (kept across the live refreshes): `''` for the one serving this console, else its id. */
let shown = '';

/** The overview's charts of one group's per-minute series. */
function renderCharts(series: any): HTMLElement {
  const text = (digits: number) => (value: number) => String(round(value, digits));
  return el(
    'div',
    { class: 'charts', id: 'overview-charts' },
    renderLineChart('chart-requests', 'Requests/s', [{ label: 'requests/s', values: series.requestsPerSecond }], text(3)),
    renderLineChart('chart-errors', 'Error rate %', [{ label: 'errors %', values: series.errorRate.map((rate: number) => rate * 100) }], text(1)),
    renderLineChart('chart-latency', 'Latency ms', [{ label: 'p50', values: series.p50LatencyMs }, { label: 'p95', values: series.p95LatencyMs }], text(0)),
    renderLineChart('chart-ttft', 'Time to first token p50 ms', [{ label: 'TTFT p50', values: series.p50TtftMs }], text(0)),
    renderLineChart('chart-tokens', 'Tokens/min', [{ label: 'tokens', values: series.tokensPerMinute }], text(0)),
    renderLineChart('chart-spend', 'Spend USD/min', [{ label: 'USD', values: series.spendUsd }], text(6)),
  );
}

/** The groups the charts can show: all requests of the instance shown, each of its styles, each of its models. */
function listScopes(overview: any): [string, string, any][] {
  return [
    ['total', 'All requests', overview.total.series],
    ...Object.entries<any>(overview.byStyle).map(([name, group]): [string, string, any] => [`style:${name}`, `Style ${name}`, group.series]),
    ...Object.entries<any>(overview.byModel).map(([name, group]): [string, string, any] => [`model:${name}`, `Model ${name}`, group.series]),
  ];
}

/**
 * The instances sharing Redis, each labelled with its id and its own last hour in total (none with the
 * memory store), and the selector of the instance the page shows (`redraw` draws the page again).
 */
function renderInstances(instances: any[], redraw: () => void): HTMLElement[] {
  if (instances.length === 0) return [];
  const rows = instances.map((instance) => rowOf(instance.self ? `${instance.id} (this one)` : instance.id, instance.summary));
  const self = instances.find((instance) => instance.self);
  const select = el(
    'select',
    { id: 'overview-instance', onchange: (event) => ((shown = (event.target as HTMLSelectElement).value), redraw()) },
    el('option', { value: '', ...(shown === '' ? { selected: true } : {}) }, self ? `${self.id} (this one)` : 'This instance'),
    ...instances.filter((instance) => !instance.self).map((instance) => el('option', { value: instance.id, ...(instance.id === shown ? { selected: true } : {}) }, instance.id)),
  );
  return [el('label', {}, 'Instance ', select), el('h2', {}, 'Instances sharing the store'), table(['Instance', ...HEADERS.slice(1)], rows, { id: 'overview-instances' })];
}

/** The overview of the instance shown: this one's, or another's as it last published it (back to this one when it left). */
async function readShownOverview(): Promise<Answer> {
  if (shown) {
    const answer = await callAdmin(`/admin/overview?instance=${encodeURIComponent(shown)}`);
    if (answer.status !== 404 || answer.json?.error?.code !== 'instance_not_found') return answer;
    shown = '';
  }
  return callAdmin('/admin/overview');
}

/**
 * The overview of one instance (this one, or one sharing Redis chosen in a selector): the last hour as
 * charts minute by minute (all requests, a style or a model, chosen in a selector), the numbers in total, per
 * style and per model, its latest requests, and every instance sharing Redis in total.
 */
export async function renderOverview(): Promise<HTMLElement> {
  const answer = await readShownOverview();
  if (answer.status !== 200) return el('p', { class: 'error' }, readError(answer));
  const { total, byStyle, byModel, recent, instances, instance, updatedAt } = answer.json;
  const scopes = listScopes(answer.json);
  if (!scopes.some(([id]) => id === scope)) scope = 'total';
  const charts = el('div', {}, renderCharts(scopes.find(([id]) => id === scope)![2]));
  const select = el('select', {
    id: 'overview-scope',
    onchange: (event) => {
      scope = (event.target as HTMLSelectElement).value;
      charts.replaceChildren(renderCharts(scopes.find(([id]) => id === scope)![2]));
    },
  }, ...scopes.map(([id, label]) => el('option', { value: id, ...(id === scope ? { selected: true } : {}) }, label)));
  const section = el(
    'section',
    {},
    el('h1', {}, 'Overview (last hour)'),
    instance ? el('p', { id: 'overview-shown' }, `Instance ${instance}, as it published at ${formatClock(updatedAt)} UTC`) : false,
    ...renderInstances(instances, () =>
      void renderOverview().then((next) => {
        section.replaceWith(next);
        document.getElementById('overview-instance')?.focus();
      }),
    ),
    el('label', {}, 'Charts of ', select),
    charts,
    table(HEADERS, [rowOf('All', total.summary)], { id: 'overview-total' }),
    el('h2', {}, 'Per style'),
    table(HEADERS, Object.entries<any>(byStyle).map(([name, group]) => rowOf(name, group.summary)), { id: 'overview-styles' }),
    el('h2', {}, 'Per model'),
    table(HEADERS, Object.entries<any>(byModel).map(([name, group]) => rowOf(name, group.summary)), { id: 'overview-models' }),
    el('h2', {}, 'Latest requests'),
    table([...FIELDS], [...recent].reverse().map(cellsOf), { id: 'overview-recent' }),
  );
  return section;
}
