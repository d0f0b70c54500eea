import { forgetKey, readKey, setSignedOutHandler, callAdmin } from './api.ts';
import { el } from './dom.ts';
import { renderKeys } from './keys-page.ts';
import { renderModels } from './models-page.ts';
import { renderOverview } from './overview-page.ts';
import { renderPlayground } from './playground-page.ts';
import { renderRequests } from './requests-page.ts';
import { renderSignIn } from './sign-in-page.ts';

const PAGES: Record<string, string> = { overview: 'Overview', models: 'Models', keys: 'Keys', requests: 'Requests', playground: 'Playground' };

let leave = new AbortController();
let refresh: ReturnType<typeof setInterval> | undefined;

/** Draws the page the hash names (the sign-in form while the tab holds no key). */
async function show(): Promise<void> {
  leave.abort();
  leave = new AbortController();
  clearInterval(refresh);
  const app = document.getElementById('app')!;
  if (!readKey()) {
    app.replaceChildren(renderSignIn(() => void show()));
    document.getElementById('admin-key')?.focus();
    return;
  }
  const page = location.hash.slice(1) in PAGES ? location.hash.slice(1) : 'overview';
  const who = el('span', { class: 'who' });
  const nav = el(
    'header',
    {},
    el('nav', { 'aria-label': 'Console' }, ...Object.entries(PAGES).flatMap(([id, label]) => [el('a', { href: `#${id}`, ...(id === page ? { 'aria-current': 'page' } : {}) }, label), ' '])),
    who,
    el('button', { type: 'button', id: 'sign-out', onclick: () => { forgetKey(); void show(); } }, 'Sign out'),
  );
  const main = el('main', {}, 'Loading…');
  app.replaceChildren(nav, main);
  void callAdmin('/admin/console/session').then((answer) => (who.textContent = answer.status === 200 ? `Signed in as ${answer.json.name}` : ''));
  const draw = async () => {
    // A live refresh keeps the keyboard focus where it was (on the element of the same id).
    const focused = main.contains(document.activeElement) ? document.activeElement?.id : undefined;
    if (page === 'overview') main.replaceChildren(await renderOverview());
    if (focused) document.getElementById(focused)?.focus();
    if (page === 'models') main.replaceChildren(await renderModels());
    if (page === 'keys') main.replaceChildren(await renderKeys());
    if (page === 'requests') main.replaceChildren(renderRequests(leave.signal));
    if (page === 'playground') main.replaceChildren(await renderPlayground());
  };
  await draw();
  if (page === 'overview') refresh = setInterval(() => void draw(), 5000);
}

setSignedOutHandler(() => void show());
addEventListener('hashchange', () => void show());
void show();
