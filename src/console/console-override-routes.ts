import { setResponseHeader, setResponseStatus } from 'h3';
import type { H3Event } from 'h3';
import type { AdminRoute, AdminSources } from '../admin/types.ts';
import { GatewayError } from '../errors.ts';
import { getConsole, readAdminName } from './get-console.ts';
import { createEmptyOverrides } from './overrides/merge-overrides.ts';
import { readJsonBody } from './read-json-body.ts';
import type { Overrides } from './types.ts';

/** The changes, loaded on first use: they check against gateway.yaml's schema (ajv), which serving alone never loads. */
const loadActions = () => import('./overrides/define-override-actions.ts');

/** The overrides as the console shows them: an issued key's digest left out (the YAML export carries it, to commit). */
function showOverrides(overrides: Overrides) {
  return { keys: overrides.keys, issued: overrides.issued.map(({ sha256: _digest, ...rest }) => rest) };
}

/** Runs one override change for the admin key of `event`, answering the overrides now in force. */
async function change(event: H3Event, sources: AdminSources, name: string, mutate: (overrides: Overrides) => Overrides) {
  const view = getConsole(sources);
  const overrides = await view.overrides.change(readAdminName(event, sources), name, mutate);
  return { overrides: showOverrides(overrides) };
}

/** A body's `name` field as a string (400 otherwise). */
function readName(body: Record<string, unknown>): string {
  if (typeof body.name !== 'string' || !body.name) throw new GatewayError(400, 'invalid_override', 'Say which key: "name" is missing.');
  return body.name;
}

/**
 * The console's changes (admin key only), stored as overrides in `server.store` and applied by every process
 * within a second: `POST /admin/keys/limits` `{name, limits, budget?}` (budget null: none), `/admin/keys/disable` and `/admin/keys/enable`
 * `{name}`, `/admin/keys/issue` `{name, models, limits?, budget?}` (answers the new secret, once),
 * `GET /admin/overrides` (JSON, and `?format=yaml` the patch to commit), `POST /admin/overrides/clear`.
 */
export const CONSOLE_OVERRIDE_ROUTES: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/admin/keys/limits',
    async handle(event, sources) {
      const body = await readJsonBody(event);
      const base = getConsole(sources).getBaseConfig();
      const { defineSetLimits } = await loadActions();
      return change(event, sources, readName(body), defineSetLimits(base, body.name, body.limits ?? {}, body.budget));
    },
  },
  ...[true, false].map((disabled): AdminRoute => ({
    method: 'POST',
    path: disabled ? '/admin/keys/disable' : '/admin/keys/enable',
    async handle(event, sources) {
      const body = await readJsonBody(event);
      const { defineSetDisabled } = await loadActions();
      return change(event, sources, readName(body), defineSetDisabled(getConsole(sources).getBaseConfig(), body.name, disabled));
    },
  })),
  {
    method: 'POST',
    path: '/admin/keys/issue',
    async handle(event, sources) {
      const body = await readJsonBody(event);
      const issued: { secret?: string } = {};
      const { defineIssueKey } = await loadActions();
      const answer = await change(event, sources, readName(body), defineIssueKey(getConsole(sources).getBaseConfig(), body, issued));
      setResponseStatus(event, 201);
      setResponseHeader(event, 'cache-control', 'no-store');
      return { name: body.name, secret: issued.secret, ...answer };
    },
  },
  {
    method: 'GET',
    path: '/admin/overrides',
    async handle(event, sources) {
      const overrides = getConsole(sources).overrides.current();
      if (new URL(event.path, 'http://admin').searchParams.get('format') !== 'yaml') return { overrides: showOverrides(overrides) };
      const { formatOverridesYaml } = await import('./overrides/format-overrides-yaml.ts');
      setResponseHeader(event, 'content-type', 'application/yaml; charset=utf-8');
      return formatOverridesYaml(overrides);
    },
  },
  {
    method: 'POST',
    path: '/admin/overrides/clear',
    handle: (event, sources) => change(event, sources, '*', () => createEmptyOverrides()),
  },
];
