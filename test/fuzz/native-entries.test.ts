import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ECHO_VENDOR_SECRET, NATIVE_KEYS, sendRawPath, startNativeGateway, type NativeGateway } from '../helpers/start-native-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';

const PARAM_RUNS = 80;
const HEADER_RUNS = 60;

/** Pieces of a path parameter: dot segments, encoded separators and escapes, and plain text. */
const PIECES = ['..', '.', '%2e', '%2E', '%2f', '%2F', '%5c', '%5C', '%25', '%252F', '%00', '%0A', '%23', '%3F', '%20', '%C3%A9', '%FF', '%', '/', ':', '~', '-', '_', '#', ';', '\\'];

const arbitraryParam = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PIECES),
      fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/),
      fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 4 }).filter((s) => !s.includes('?')),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((pieces) => pieces.join(''));

/** What the gateway must answer for `/native/echo/items/<raw>`: 404 (no route), 400 (bad parameter) or 200 (forwarded as one segment). */
function expectParam(raw: string): { status: number; vendorPath?: string } {
  if (raw === '' || raw.includes('/') || raw.includes(':')) return { status: 404 };
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { status: 400 };
  }
  if (!/^[A-Za-z0-9._~-]{1,256}$/.test(decoded) || /^\.+$/.test(decoded)) return { status: 400 };
  return { status: 200, vendorPath: `/items/${decoded}` };
}

const HEADER_NAMES = [
  'cookie',
  'x-api-key',
  'x-goog-api-key',
  'proxy-authorization',
  'x-echo-key',
  'x-echo-mode',
  'x-forwarded-for',
  'forwarded',
  'x-real-ip',
  'x-dashscope-async',
  'x-request-id',
  'anthropic-version',
  'x-vendor-trace',
];

const arbitraryHeaders = fc.dictionary(
  fc.oneof(fc.constantFrom(...HEADER_NAMES), fc.stringMatching(/^x-[a-z0-9-]{1,12}$/)),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 40 }).map((s) => s.trim() || 'v'),
  { maxKeys: 8 },
);

/** Headers any HTTP client library adds to a GET without a body; everything else at the vendor must be allowlisted. */
const FRAMING = new Set(['host', 'connection']);

describe('fuzz: the path parameters and headers of a vendor-native entry', () => {
  let gw: NativeGateway;
  beforeAll(async () => {
    gw = await startNativeGateway();
  });
  afterAll(() => gw.close());

  it(
    'forwards a path parameter only as one safe segment, answers 400/404 otherwise and never calls the vendor then',
    async () => {
      await runFuzz(
        'native-params',
        arbitraryParam,
        async (raw) => {
          gw.echo.length = 0;
          const expected = expectParam(raw);
          const answer = await sendRawPath(gw.url, 'GET', `/native/echo/items/${raw}`, { authorization: `Bearer ${NATIVE_KEYS.granted}` });
          const problems: string[] = [];
          if (answer.status !== expected.status) problems.push(`status ${answer.status}, expected ${expected.status} for ${JSON.stringify(raw)}`);
          if (!answer.headers['x-request-id']) problems.push('no x-request-id');
          if (answer.json === undefined) problems.push('answer is not JSON');
          if (expected.status === 200) {
            if (gw.echo.length !== 1 || gw.echo[0].url !== expected.vendorPath) problems.push(`vendor got ${JSON.stringify(gw.echo.map((r) => r.url))}, expected ${expected.vendorPath}`);
          } else if (gw.echo.length > 0) problems.push(`vendor called with ${gw.echo[0].url} for a refused request`);
          return problems;
        },
        PARAM_RUNS,
      );
    },
    getFuzzTimeout(PARAM_RUNS, 100),
  );

  it(
    'passes only allowlisted headers, always with the gateway credential, and answers only allowlisted vendor headers',
    async () => {
      await runFuzz(
        'native-headers',
        arbitraryHeaders,
        async (headers) => {
          gw.echo.length = 0;
          const answer = await sendRawPath(gw.url, 'GET', '/native/echo/items/item?page=1', { ...headers, authorization: `Bearer ${NATIVE_KEYS.granted}` });
          const problems: string[] = [];
          if (answer.status !== 200) return [`status ${answer.status} ${JSON.stringify(answer.json)}`];
          const sent = gw.echo[0];
          if (!sent) return ['vendor not called'];
          if (sent.url !== '/items/item?page=1') problems.push(`vendor url ${sent.url}`);
          if (sent.headers['x-echo-key'] !== ECHO_VENDOR_SECRET) problems.push(`vendor credential replaced by ${sent.headers['x-echo-key']}`);
          if ((sent.headers['x-echo-mode'] ?? undefined) !== headers['x-echo-mode']) problems.push(`x-echo-mode ${sent.headers['x-echo-mode']} != ${headers['x-echo-mode']}`);
          for (const name of Object.keys(sent.headers)) {
            if (!FRAMING.has(name) && name !== 'x-echo-key' && name !== 'x-echo-mode') problems.push(`vendor received ${name}`);
          }
          if (answer.headers['set-cookie'] || answer.headers['x-vendor-internal']) problems.push('a vendor header outside the allowlist reached the client');
          if (answer.headers['x-vendor-trace'] !== 'trace-1') problems.push('the allowlisted x-vendor-trace is missing');
          if (answer.headers['x-request-id'] === headers['x-request-id']) problems.push('the client set its own x-request-id');
          if (JSON.stringify(answer).includes(ECHO_VENDOR_SECRET)) problems.push('vendor secret in the answer');
          return problems;
        },
        HEADER_RUNS,
      );
    },
    getFuzzTimeout(HEADER_RUNS, 100),
  );
});
