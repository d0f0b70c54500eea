import { callAdmin, keepKey, readError } from './api.ts';
import { el } from './dom.ts';

/**
 * The sign-in form: the admin key is checked against `GET /admin/console/session` and, when it is an admin
 * key, kept in this tab's sessionStorage; a client key or a wrong one is refused with the gateway's message.
 */
export function renderSignIn(onSignedIn: () => void): HTMLElement {
  const input = el('input', { type: 'password', id: 'admin-key', name: 'admin-key', autocomplete: 'off', required: true }) as HTMLInputElement;
  const message = el('p', { role: 'alert', class: 'error', id: 'sign-in-error' });
  const form = el(
    'form',
    {
      class: 'sign-in',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        message.textContent = '';
        const answer = await callAdmin('/admin/console/session', { key: input.value });
        if (answer.status === 200) {
          keepKey(input.value);
          input.value = '';
          onSignedIn();
        } else {
          message.textContent = readError(answer);
        }
      },
    },
    el('h1', {}, 'Gateway console'),
    el('label', { for: 'admin-key' }, 'Admin key'),
    input,
    el('button', { type: 'submit' }, 'Sign in'),
    message,
  );
  return form;
}
