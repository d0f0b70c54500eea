import type { SchemaGatewayFile } from '../../generated/config-types.ts';

/** A place in the config and what is wrong there. */
type Report = (path: (string | number)[], message: string) => void;

/** Request headers no entry may pass: credentials, cookies and the framing the gateway itself owns. */
const CLOSED_REQUEST_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'cookie',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** Response headers no entry may pass: cookies, framing, and headers the gateway sets itself. */
const CLOSED_RESPONSE_HEADERS = new Set([
  'set-cookie',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'trailer',
  'upgrade',
  'x-request-id',
  'www-authenticate',
]);

const PARAM = /\{([^}]*)\}/g;

/**
 * Problems of the vendor-native routes (`op: native`): the entry block present exactly on them, a known
 * vendor, unique names, a model source the entry can serve, every vendor path parameter taken from the
 * gateway path, and header allowlists that never pass a credential, a cookie or framing. `keys[].native`
 * must name declared entries. No query parameter that carries a key (`key`, the vendor's auth parameter).
 */
export function checkNativeRoutes(config: SchemaGatewayFile, report: Report): void {
  const vendors = config.vendors ?? {};
  const names = new Map<string, number>();
  (config.routes ?? []).forEach((route, i) => {
    if (route.op !== 'native') {
      if (route.native !== undefined) report(['routes', i, 'native'], 'only a route with op: native takes a native block');
      return;
    }
    const entry = route.native;
    if (entry === undefined) return report(['routes', i], 'op: native needs a native block (name, vendor, path)');
    if (names.has(entry.name)) report(['routes', i, 'native', 'name'], `duplicate native entry "${entry.name}" (first at routes.${names.get(entry.name)})`);
    names.set(entry.name, i);
    const vendor = vendors[entry.vendor];
    if (!vendor) report(['routes', i, 'native', 'vendor'], `unknown vendor "${entry.vendor}"`);
    const model = String(route.model ?? 'none');
    if (!/^(body\.|task$|none$)/.test(model)) report(['routes', i, 'model'], 'a native route finds its model in body.<field>, task or none');
    if (model.startsWith('body.') && route.method === 'GET') report(['routes', i, 'model'], 'a GET route has no body to name a model');
    const gatewayParams = new Set([...String(route.path).matchAll(PARAM)].map((m) => m[1]));
    if (model === 'task' && !gatewayParams.has('task_id')) report(['routes', i, 'model'], 'model: task needs a {task_id} parameter in the path');
    for (const [, name] of String(entry.path).matchAll(PARAM)) {
      if (!gatewayParams.has(name)) report(['routes', i, 'native', 'path'], `{${name}} is not a parameter of the route's path`);
    }
    for (const name of gatewayParams) {
      if (!new RegExp(`(^|/)\\{${name}\\}(/|$)`).test(route.path)) {
        report(['routes', i, 'path'], `{${name}} must be a whole path segment on a native route`);
      }
    }
    const vendorAuth = vendor?.auth;
    const auth = typeof vendorAuth === 'object' && 'header' in vendorAuth ? vendorAuth.header.toLowerCase() : undefined;
    (entry.request_headers ?? []).forEach((header, h) => {
      const lower = header.toLowerCase();
      if (CLOSED_REQUEST_HEADERS.has(lower) || lower === auth) {
        report(['routes', i, 'native', 'request_headers', h], `"${header}" may not be passed to a vendor (credentials and framing stay with the gateway)`);
      }
    });
    const authQuery = typeof vendorAuth === 'object' && 'query' in vendorAuth ? vendorAuth.query : undefined;
    (entry.query ?? []).forEach((name, q) => {
      // `key` carries a client key in the generate-content style; the vendor's auth parameter is the gateway's.
      if (name === 'key' || name === authQuery) report(['routes', i, 'native', 'query', q], `"${name}" may not be passed to a vendor (it carries a credential)`);
    });
    (entry.response_headers ?? []).forEach((header, h) => {
      const lower = header.toLowerCase();
      if (CLOSED_RESPONSE_HEADERS.has(lower) || lower.startsWith('x-ratelimit-')) {
        report(['routes', i, 'native', 'response_headers', h], `"${header}" may not be passed to a client`);
      }
    });
  });
  (config.keys ?? []).forEach((key, k) => {
    (key.native ?? []).forEach((name, n) => {
      if (!names.has(name)) report(['keys', k, 'native', n], `unknown native entry "${name}"`);
    });
  });
}
