import { callAdmin, readError } from './api.ts';
import { el, table } from './dom.ts';

/** A number input of a limit (empty: no limit). */
function limitInput(key: string, field: string, value: number | undefined): HTMLInputElement {
  const id = `limit-${field}-${key}`;
  return el('input', { type: 'number', min: 0, step: 1, name: field, id, value: value ?? '', 'aria-label': `${field} of ${key}` }) as HTMLInputElement;
}

/** The form that changes a key's rpm, tpm, concurrency and budget (Enter in any field saves). */
function renderLimitsForm(key: any, status: HTMLElement, reload: () => void): HTMLElement {
  const inputs = ['rpm', 'tpm', 'concurrency'].map((field) => limitInput(key.name, field, key.limits[field]));
  const usd = el('input', { type: 'number', min: 0, step: 'any', name: 'usd', id: `budget-usd-${key.name}`, value: key.budget?.usd ?? '' }) as HTMLInputElement;
  const period = el('select', { name: 'period', id: `budget-period-${key.name}` }, ...['day', 'month'].map((p) => el('option', { value: p, ...(key.budget?.period === p ? { selected: true } : {}) }, p))) as HTMLSelectElement;
  return el(
    'form',
    {
      class: 'inline',
      'data-key': key.name,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const limits: Record<string, number> = {};
        for (const input of inputs) if (input.value !== '') limits[input.name] = Number(input.value);
        // An emptied budget field removes the key's budget; an untouched empty one changes nothing.
        const budget = usd.value !== '' ? { usd: Number(usd.value), period: period.value } : key.budget ? null : undefined;
        const answer = await callAdmin('/admin/keys/limits', { method: 'POST', body: { name: key.name, limits, ...(budget === undefined ? {} : { budget }) } });
        status.textContent = answer.status === 200 ? `Limits of ${key.name} saved.` : readError(answer);
        if (answer.status === 200) reload();
      },
    },
    ...inputs.flatMap((input) => [el('label', { for: input.id }, input.name), input]),
    el('label', { for: usd.id }, 'budget USD'), usd,
    el('label', { for: period.id }, 'per'), period,
    el('button', { type: 'submit' }, 'Save limits'),
  );
}

/** Disable or enable. */
function renderToggle(key: any, status: HTMLElement, reload: () => void): HTMLElement {
  const action = key.disabled ? 'enable' : 'disable';
  return el(
    'button',
    {
      type: 'button',
      'data-action': action,
      onclick: async () => {
        const answer = await callAdmin(`/admin/keys/${action}`, { method: 'POST', body: { name: key.name } });
        status.textContent = answer.status === 200 ? `${key.name}: ${action}d.` : readError(answer);
        if (answer.status === 200) reload();
      },
    },
    key.disabled ? `Enable ${key.name}` : `Disable ${key.name}`,
  );
}

/** The form that issues a key: its secret is shown once, here, and never again. */
function renderIssueForm(status: HTMLElement, reload: () => void): HTMLElement {
  const name = el('input', { id: 'issue-name', name: 'name', required: true }) as HTMLInputElement;
  const models = el('input', { id: 'issue-models', name: 'models', value: '*' }) as HTMLInputElement;
  const rpm = el('input', { id: 'issue-rpm', name: 'rpm', type: 'number', min: 0 }) as HTMLInputElement;
  const shown = el('p', { id: 'issued', 'aria-live': 'polite' });
  return el(
    'form',
    {
      id: 'issue-form',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const body = { name: name.value, models: models.value.split(',').map((m) => m.trim()).filter(Boolean), ...(rpm.value ? { limits: { rpm: Number(rpm.value) } } : {}) };
        const answer = await callAdmin('/admin/keys/issue', { method: 'POST', body });
        if (answer.status !== 201) {
          status.textContent = readError(answer);
          return;
        }
        reload();
        shown.replaceChildren('New key (shown once, copy it now): ', el('code', { class: 'secret', id: 'issued-secret' }, answer.json.secret));
      },
    },
    el('h2', {}, 'Issue a key'),
    el('label', { for: 'issue-name' }, 'Name'), name,
    el('label', { for: 'issue-models' }, 'Models (comma-separated globs)'), models,
    el('label', { for: 'issue-rpm' }, 'rpm'), rpm,
    el('button', { type: 'submit' }, 'Issue key'),
    shown,
  );
}

/** The keys page: every key (never its secret), its limits and live usage, the override forms, and the YAML export. */
export async function renderKeys(): Promise<HTMLElement> {
  const section = el('section', {});
  const status = el('p', { role: 'status', id: 'keys-status', class: 'notice' });
  const issue = renderIssueForm(status, () => void draw());
  async function draw() {
    const [answer, patch] = await Promise.all([callAdmin('/admin/keys'), callAdmin('/admin/overrides?format=yaml')]);
    if (answer.status !== 200) {
      const yaml = el('pre', { id: 'overrides-yaml' });
    yaml.textContent = patch.text;
    section.replaceChildren(el('p', { class: 'error' }, readError(answer)));
      return;
    }
    const rows = (answer.json.keys as any[]).map((key) => [
      key.name,
      key.admin ? 'admin' : key.disabled ? 'disabled' : key.issued ? 'issued in console' : key.overridden ? 'overridden' : 'gateway.yaml',
      key.models.join(', '),
      `${key.usage.requestsLastMinute} req, ${key.usage.tokensLastMinute} tok /min; $${key.usage.spendLastHourUsd.toFixed(4)} /h`,
      key.budget ? `${key.budget.usd} USD / ${key.budget.period}` : '',
      key.admin ? '' : renderLimitsForm(key, status, () => void draw()),
      key.admin ? '' : renderToggle(key, status, () => void draw()),
    ]);
    const yaml = el('pre', { id: 'overrides-yaml' });
    yaml.textContent = patch.text;
    section.replaceChildren(
      el('h1', {}, 'Keys'),
      status,
      table(['Key', 'Source', 'Models', 'Usage', 'Budget', 'Limits (rpm, tpm, concurrency, budget)', ''], rows, { id: 'keys' }),
      issue,
      el('h2', {}, 'Overrides as a YAML patch for gateway.yaml'),
      yaml,
      el('button', {
        type: 'button',
        onclick: async () => {
          const answer = await callAdmin('/admin/overrides/clear', { method: 'POST', body: {} });
          status.textContent = answer.status === 200 ? 'Overrides cleared: gateway.yaml as written is in force.' : readError(answer);
          void draw();
        },
      }, 'Clear overrides'),
    );
  }
  await draw();
  return section;
}
