import { callAdmin, readError } from './api.ts';
import { el } from './dom.ts';

/** A `<pre>` holding `text` as text (not clipped: the server caps bodies at 64 KB). */
function pre(id: string, text: string): HTMLElement {
  const block = el('pre', { id });
  block.textContent = text;
  return block;
}

function select(id: string, label: string, values: string[]): [HTMLElement, HTMLSelectElement] {
  const element = el('select', { id, name: id }, ...values.map((value) => el('option', { value }, value))) as HTMLSelectElement;
  return [el('label', { for: id }, label), element];
}

/** What the playground answered: the client's status and body, then each vendor exchange (credentials removed by the gateway). */
function renderResult(result: any): HTMLElement {
  return el(
    'div',
    { id: 'playground-result' },
    el('h2', {}, `Answer (status ${result.status})`),
    pre('playground-answer', result.answer),
    ...result.exchanges.flatMap((exchange: any, i: number) => [
      el('h2', {}, `Vendor received (${i + 1})`),
      pre(`vendor-request-${i}`, `${exchange.request.method} ${exchange.request.url}\n${JSON.stringify(exchange.request.headers, null, 2)}\n\n${exchange.request.body}`),
      el('h2', {}, `Vendor answered (${i + 1})`),
      pre(`vendor-response-${i}`, `${exchange.response.status}\n${JSON.stringify(exchange.response.headers, null, 2)}\n\n${exchange.response.body}`),
    ]),
  );
}

/**
 * The playground: a chat in a chosen client style to a chosen model under a chosen key (by name: it counts
 * against that key's limits and budget), showing the answer and what the vendor received and answered.
 */
export async function renderPlayground(): Promise<HTMLElement> {
  const [keys, models] = await Promise.all([callAdmin('/admin/keys'), callAdmin('/admin/models')]);
  if (keys.status !== 200 || models.status !== 200) return el('p', { class: 'error' }, readError(keys.status !== 200 ? keys : models));
  const [keyLabel, key] = select('playground-key', 'Key', keys.json.keys.filter((k: any) => !k.admin && !k.disabled).map((k: any) => k.name));
  const [modelLabel, model] = select('playground-model', 'Model', models.json.models.map((m: any) => m.id));
  const [styleLabel, style] = select('playground-style', 'Client style', models.json.styles);
  const stream = el('input', { type: 'checkbox', id: 'playground-stream' }) as HTMLInputElement;
  const prompt = el('textarea', { id: 'playground-prompt', rows: 3, cols: 60, required: true }) as HTMLTextAreaElement;
  const status = el('p', { role: 'status', id: 'playground-status' });
  const output = el('div', {});
  const form = el(
    'form',
    {
      id: 'playground-form',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        status.textContent = 'Sending…';
        const body = { key: key.value, model: model.value, style: style.value, stream: stream.checked, prompt: prompt.value };
        const answer = await callAdmin('/admin/playground', { method: 'POST', body });
        status.textContent = answer.status === 200 ? 'Done.' : readError(answer);
        output.replaceChildren(answer.status === 200 ? renderResult(answer.json) : el('span', {}));
      },
    },
    keyLabel, key, ' ', modelLabel, model, ' ', styleLabel, style, ' ',
    el('label', { for: 'playground-stream' }, 'Stream'), stream,
    el('br', {}),
    el('label', { for: 'playground-prompt' }, 'Prompt'), prompt,
    el('button', { type: 'submit' }, 'Send'),
  );
  return el('section', {}, el('h1', {}, 'Playground'), form, status, output);
}
