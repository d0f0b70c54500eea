import { callAdmin, readError } from './api.ts';
import { el, table } from './dom.ts';

const targets = (list: { vendor: string; upstream: string; weight?: number }[]) =>
  list.map((t) => `${t.vendor}/${t.upstream}${t.weight === undefined ? '' : ` (weight ${t.weight})`}`).join(', ');

/** The models page: every model with its vendor, upstream, targets, fallbacks, transforms and styles. */
export async function renderModels(): Promise<HTMLElement> {
  const answer = await callAdmin('/admin/models');
  if (answer.status !== 200) return el('p', { class: 'error' }, readError(answer));
  const rows = (answer.json.models as any[]).map((m) => [
    m.id,
    m.vendor,
    m.upstream,
    targets(m.targets),
    targets(m.fallbacks),
    m.transform ? `${m.transform.name}: ${JSON.stringify(m.transform.ops)}` : '',
    m.images ? JSON.stringify(m.images) : '',
    m.styles.native.join(', '),
    m.styles.translated.join(', '),
  ]);
  const headers = ['Model', 'Vendor', 'Upstream', 'Targets', 'Fallbacks', 'Transform', 'Image options', 'Native styles', 'Translated styles'];
  return el('section', {}, el('h1', {}, 'Models'), table(headers, rows, { id: 'models' }));
}
