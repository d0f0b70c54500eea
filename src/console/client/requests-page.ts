import { readKey } from './api.ts';
import { el } from './dom.ts';
import { cellsOf, FIELDS } from './usage-cells.ts';

/** Rows shown at most (the oldest leave). */
const MAX_ROWS = 500;

/**
 * The requests page: the live tail of usage rows read from a streamed `fetch` of `/admin/usage/tail`
 * (NDJSON; the key in the Authorization header, so no EventSource), newest first, filtered by a text
 * box. Every value goes in as text. `signal` ends the stream when the page is left.
 */
export function renderRequests(signal: AbortSignal): HTMLElement {
  const filter = el('input', { id: 'tail-filter', type: 'search', 'aria-label': 'Filter' }) as HTMLInputElement;
  const body = el('tbody', { id: 'tail-rows' });
  const state = el('p', { role: 'status', id: 'tail-state' }, 'Connecting…');
  const matches = (tr: HTMLElement) => !filter.value || (tr.textContent ?? '').toLowerCase().includes(filter.value.toLowerCase());
  filter.addEventListener('input', () => {
    for (const tr of Array.from(body.children) as HTMLElement[]) tr.hidden = !matches(tr);
  });
  const add = (row: any) => {
    const tr = el('tr', {}, ...cellsOf(row).map((text) => el('td', {}, text)));
    tr.hidden = !matches(tr);
    body.prepend(tr);
    while (body.children.length > MAX_ROWS) body.lastElementChild?.remove();
  };
  void follow(add, state, signal);
  return el(
    'section',
    {},
    el('h1', {}, 'Requests'),
    el('label', { for: 'tail-filter' }, 'Filter'),
    filter,
    state,
    el('table', { id: 'tail' }, el('thead', {}, el('tr', {}, ...FIELDS.map((f) => el('th', { scope: 'col' }, f)))), body),
  );
}

async function follow(add: (row: any) => void, state: HTMLElement, signal: AbortSignal): Promise<void> {
  try {
    const response = await fetch('/admin/usage/tail', { headers: { authorization: `Bearer ${readKey() ?? ''}` }, signal, credentials: 'omit', cache: 'no-store' });
    if (!response.ok || !response.body) {
      state.textContent = `The tail could not be opened (${response.status}).`;
      return;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += value;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const row = JSON.parse(line);
        if (row.open) state.textContent = 'Live.';
        else add(row);
      }
    }
    state.textContent = 'The tail ended.';
  } catch {
    if (!signal.aborted) state.textContent = 'The tail was cut.';
  }
}
