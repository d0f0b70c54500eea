import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECRET, startAdminGateway, type AdminGateway } from '../helpers/start-admin-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { formatHead, sendRaw } from './raw-http.ts';

const RUNS = 80;

/** A generated request to the admin listener: method, path, query and headers, some carrying the admin key wrongly. */
interface AdminCase {
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  /** Whether the request presents the admin key the one accepted way (Authorization: Bearer). */
  bearer: boolean;
}

function arbitraryAdminCase(clientKey: string): fc.Arbitrary<AdminCase> {
  const secret = fc.constantFrom(ADMIN_SECRET, clientKey, '', ADMIN_SECRET.toUpperCase(), `${ADMIN_SECRET}x`, ADMIN_SECRET.slice(0, -1));
  const path = fc.oneof(
    fc.constantFrom('/admin/status', '/admin/', '/admin', '/admin/reload', '/admin/status/', '/admin//status', '/admin/%2e%2e/metrics', '/metrics', '/healthz', '/readyz', '/'),
    fc.stringMatching(/^\/admin\/[a-zA-Z0-9%._~!$&'()*+,;=:@/-]{0,40}$/),
    fc.stringMatching(/^\/[a-zA-Z0-9%._~-]{0,30}$/),
  );
  const query = fc.oneof(fc.constant(''), secret.map((s) => `?key=${s}`), secret.map((s) => `?access_token=${s}`), fc.stringMatching(/^\?[a-z=&0-9]{0,20}$/));
  const header = fc.oneof(
    secret.map((s): [string, string] => ['authorization', `Bearer ${s}`]),
    secret.map((s): [string, string] => ['authorization', `bearer   ${s}`]),
    secret.map((s): [string, string] => ['authorization', s]),
    secret.map((s): [string, string] => ['cookie', `authorization=Bearer ${s}; admin_key=${s}`]),
    secret.map((s): [string, string] => ['x-api-key', s]),
    fc.tuple(fc.stringMatching(/^x-[a-z-]{1,12}$/), fc.stringMatching(/^[ -~]{0,40}$/)),
  );
  return fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'),
    path,
    query,
    headers: fc.array(header, { maxLength: 3 }),
  }).map((c) => {
    // Node keeps the first of repeated Authorization headers.
    const first = c.headers.find(([name]) => name === 'authorization')?.[1];
    return { ...c, bearer: first !== undefined && /^bearer\s+/i.test(first) && first.replace(/^bearer\s+/i, '') === ADMIN_SECRET };
  });
}

describe('fuzz: the admin listener', () => {
  let gw: AdminGateway;
  beforeAll(async () => {
    gw = await startAdminGateway();
  });
  afterAll(() => gw.close());

  it(
    'answers any method, path, query and header with JSON (or metrics text), opens /admin/ only to the admin key in Authorization: Bearer (refusing all after five wrong keys), never leaks a key and stays up',
    async () => {
      const port = Number(new URL(gw.admin.url).port);
      await runFuzz('admin-routes', arbitraryAdminCase(gw.key), async (c) => {
        const problems: string[] = [];
        const headers: [string, string][] = [['host', 'admin'], ['connection', 'close'], ...c.headers];
        const answer = await sendRaw(port, { head: formatHead(c.method, c.path + c.query, headers) }, 5000);
        const status = answer.status;
        if (status === undefined) return [`no answer (timed out: ${answer.timedOut})`];
        if (status >= 500) problems.push(`status ${status}`);
        const body = answer.body.toString('utf8');
        if (body.includes(ADMIN_SECRET) || body.includes(gw.key)) problems.push('a key is in the answer');
        const path = c.path;
        const isAdmin = path.startsWith('/admin');
        if (isAdmin && status === 200 && !(c.bearer && c.method === 'GET' && path === '/admin/status')) problems.push(`admin path answered 200 to ${c.method} without the key`);
        // After five wrong keys from one address (this test's), every admin request from it is refused 429 for a minute.
        const lockedOut = status === 429 && (c.method === 'HEAD' || body.includes('too_many_failed_sign_ins')) && answer.headers['retry-after'] !== undefined;
        if (isAdmin && status !== 400 && !c.bearer && status !== 401 && !lockedOut) problems.push(`admin path without the key answered ${status}, not 401`);
        if (status === 429 && !lockedOut) problems.push('a 429 that is not the sign-in lockout, or without Retry-After');
        if (status !== 400 && c.method !== 'HEAD' && path !== '/metrics' && !answer.headers['content-type']?.startsWith('application/json')) {
          problems.push(`content-type ${answer.headers['content-type']}`);
        }
        return problems;
      }, RUNS);
      expect((await gw.getAdmin('/healthz')).status).toBe(200);
    },
    getFuzzTimeout(RUNS, 100),
  );
});
