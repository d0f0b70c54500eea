import { setResponseHeader, setResponseStatus } from 'h3';
import { GatewayError } from '../errors.ts';
import { getConsole } from './get-console.ts';
import { createEmptyOverrides } from './overrides/merge-overrides.ts';
import { readJsonBody } from './read-json-body.ts';
import type { ConsoleHost, ConsoleRoute, Overrides } from './types.ts';

/** The changes, loaded on first use: they check against gateway.yaml's schema (ajv), which serving alone never loads. */
const loadActions = () => import('./overrides/define-override-actions.ts');

/** The overrides as the console shows them: an issued key's digest left out (the YAML export carries it, to commit). */
function showOverrides(overrides: Overrides) {
  return { keys: overrides.keys, issued: overrides.issued.map(({ sha256: _digest, ...rest }) => rest) };
}

/** Runs one override change by the admin key named `adminName`, answering the overrides now in force. */
async function change(host: ConsoleHost, adminName: string, name: string, mutate: (overrides: Overrides) => Overrides) {
  const view = getConsole(host);
  const overrides = await view.overrides.change(adminName, name, mutate);
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
export const CONSOLE_OVERRIDE_ROUTES: readonly ConsoleRoute[] = [
  {
    method: 'POST',
    path: '/admin/keys/limits',
    async handle(event, host, adminName) {
      const body = await readJsonBody(event);
      const base = getConsole(host).getBaseConfig();
      const { defineSetLimits } = await loadActions();
      return change(host, adminName, readName(body), defineSetLimits(base, body.name, body.limits ?? {}, body.budget));
    },
  },
  ...[true, false].map((disabled): ConsoleRoute => ({
    method: 'POST',
    path: disabled ? '/admin/keys/disable' : '/admin/keys/enable',
    async handle(event, host, adminName) {
      const body = await readJsonBody(event);
      const { defineSetDisabled } = await loadActions();
      return change(host, adminName, readName(body), defineSetDisabled(getConsole(host).getBaseConfig(), body.name, disabled));
    },
  })),
  {
    method: 'POST',
    path: '/admin/keys/issue',
    async handle(event, host, adminName) {
      const body = await readJsonBody(event);
      const issued: { secret?: string } = {};
      const { defineIssueKey } = await loadActions();
      const answer = await change(host, adminName, readName(body), defineIssueKey(getConsole(host).getBaseConfig(), body, issued));
      setResponseStatus(event, 201);
      setResponseHeader(event, 'cache-control', 'no-store');
      return { name: body.name, secret: issued.secret, ...answer };
    },
  },
  {
    method: 'GET',
    path: '/admin/overrides',
    async handle(event, host) {
      const overrides = getConsole(host).overrides.current();
      if (new URL(event.path, 'http://admin').searchParams.get('format') !== 'yaml') return { overrides: showOverrides(overrides) };
      const { formatOverridesYaml } = await import('./overrides/format-overrides-yaml.ts');
      setResponseHeader(event, 'content-type', 'application/yaml; charset=utf-8');
      return formatOverridesYaml(overrides);
    },
  },
  {
    method: 'POST',
    path: '/admin/overrides/clear',
    handle: (_event, host, adminName) => change(host, adminName, '*', () => createEmptyOverrides()),
  },
];
