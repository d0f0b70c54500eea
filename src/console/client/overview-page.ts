import { callAdmin, readError } from './api.ts';
import { el, table } from './dom.ts';

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

function rowOf(name: string, s: any): (string | number)[] {
  return [name, s.requests, round(s.requestsPerSecond, 2), `${round(s.errorRate * 100)} %`, s.p50LatencyMs, s.p95LatencyMs, s.p50TtftMs, round(s.tokensPerMinute), round(s.spendUsd, 6)];
}

const HEADERS = ['', 'Requests (1 h)', 'Requests/s (1 min)', 'Errors', 'p50 ms', 'p95 ms', 'TTFT p50 ms', 'Tokens/min', 'Spend USD'];

/** A bar per minute of the last hour (CSS heights, no script in the markup). */
function renderBars(perMinute: number[]): HTMLElement {
  const top = Math.max(1, ...perMinute);
  const bars = el('div', { class: 'bars', role: 'img', 'aria-label': 'Requests per minute, last hour' });
  for (const count of perMinute) {
    const bar = el('span', { title: `${count} requests` });
    bar.style.height = `${(count / top) * 100}%`;
    bars.append(bar);
  }
  return bars;
}

/** The overview: the last hour's numbers of the gateway process serving the console, in total, per style and per model. */
export async function renderOverview(): Promise<HTMLElement> {
  const answer = await callAdmin('/admin/overview');
  if (answer.status !== 200) return el('p', { class: 'error' }, readError(answer));
  const { total, byStyle, byModel, perMinute } = answer.json;
  return el(
    'section',
    {},
    el('h1', {}, 'Overview (last hour)'),
    renderBars(perMinute),
    table(HEADERS, [rowOf('All', total)], { id: 'overview-total' }),
    el('h2', {}, 'Per style'),
    table(HEADERS, Object.entries(byStyle).map(([name, s]) => rowOf(name, s))),
    el('h2', {}, 'Per model'),
    table(HEADERS, Object.entries(byModel).map(([name, s]) => rowOf(name, s))),
  );
}
