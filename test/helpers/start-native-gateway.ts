import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileConfigFile } from '../../src/config/index.ts';
import type { CompiledConfig, KeyEntry, RouteEntry } from '../../src/config/types.ts';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { SIMULATOR_CLIENT_KEY, simulateVendors, type SimulatedSetup } from '../../src/simulate.ts';

/** The credential the gateway holds for the echo vendor (the vendor checks it). */
export const ECHO_VENDOR_SECRET = 'sk-echo-vendor-secret-0123456789';

/** Client keys of the native-entry gateway, by name. */
export const NATIVE_KEYS = {
  /** All models, every echo entry granted. */
  granted: 'sk-native-granted-key',
  /** All models, every echo entry granted: a second team. */
  other: 'sk-native-other-key',
  /** `gpt-*` models only, no grant. */
  narrow: 'sk-native-narrow-key',
  /** All models, 1 request a minute. */
  limited: 'sk-native-limited-key',
};

/** One request the echo vendor received. */
export interface EchoRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A gateway serving gateway.yaml from the simulators plus native entries of a local echo vendor. */
export interface NativeGateway {
  url: string;
  /** The simulate-mode key: every model, no native grant. */
  key: string;
  sims: SimulatedSetup['sims'];
  /** What the echo vendor received, in order. */
  echo: EchoRequest[];
  events: UsageEvent[];
  gateway: Gateway;
  close(): Promise<void>;
}

function defineKey(name: keyof typeof NATIVE_KEYS, models: string[], extra: Partial<KeyEntry> = {}): KeyEntry {
  const sha256 = createHash('sha256').update(NATIVE_KEYS[name]).digest('hex');
  return { name, secret: { sha256 }, models, limits: {}, strict: false, ...extra };
}

const ECHO_ROUTES: RouteEntry[] = [
  {
    method: 'GET',
    path: '/native/echo/items/{item_id}',
    style: 'openai',
    op: 'native',
    model: { from: 'none', name: '' },
    body: 'none',
    native: { name: 'echo-items', vendor: 'echo', path: '/items/{item_id}', requestHeaders: ['x-echo-mode'], responseHeaders: ['x-vendor-trace', 'retry-after'], query: ['page'] },
  },
  {
    method: 'POST',
    path: '/native/echo/jobs',
    style: 'openai',
    op: 'native',
    model: { from: 'none', name: '' },
    body: 'json',
    native: { name: 'echo-jobs', vendor: 'echo', path: '/jobs', requestHeaders: [], responseHeaders: [], query: [], taskId: ['job', 'id'] },
  },
  {
    method: 'GET',
    path: '/native/echo/jobs/{task_id}',
    style: 'openai',
    op: 'native',
    model: { from: 'task', name: 'task_id' },
    body: 'none',
    native: { name: 'echo-job', vendor: 'echo', path: '/jobs/{task_id}', requestHeaders: [], responseHeaders: [], query: [], taskId: ['job', 'id'] },
  },
];

/**
 * A vendor on 127.0.0.1 that checks its credential (`x-echo-key`), records every request and answers
 * JSON naming the path it was called on, with headers a gateway must not pass on (a cookie, rate limits)
 * and a fractional Retry-After.
 */
async function startEchoVendor(received: EchoRequest[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const ok = req.headers['x-echo-key'] === ECHO_VENDOR_SECRET;
      const path = (req.url ?? '').split('?')[0];
      const job = path.startsWith('/jobs') ? { job: { id: path === '/jobs' ? 'vendor-job-1' : path.slice('/jobs/'.length), state: 'queued' } } : {};
      const text = JSON.stringify(ok ? { path, ...job } : { error: { message: 'bad key', code: 'invalid_api_key' } });
      res.writeHead(ok ? 200 : 401, {
        'content-type': 'application/json',
        'x-vendor-trace': 'trace-1',
        // Fractional seconds (allowlisted on echo-items): the client gets whole seconds, as on every path.
        'retry-after': '1.5',
        'x-vendor-internal': 'internal-1',
        'set-cookie': 'vendor-session=1',
        'x-ratelimit-remaining-requests': '7',
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Starts the simulators, the echo vendor and a gateway with the echo entries, the keys of {@link NATIVE_KEYS}
 * and the model `wan-video` (upstream `wan2.2-t2v-plus`).
 */
export async function startNativeGateway(): Promise<NativeGateway> {
  const { config: base, problems } = await compileConfigFile('gateway.yaml');
  if (!base) throw new Error(problems.map((p) => p.message).join('\n'));
  const setup = await simulateVendors(base);
  const echo: EchoRequest[] = [];
  const vendor = await startEchoVendor(echo);
  const grants = { native: ['echo-items', 'echo-jobs', 'echo-job'] };
  const config: CompiledConfig = {
    ...setup.config,
    vendors: {
      ...setup.config.vendors,
      echo: { ...setup.config.vendors.openai, name: 'echo', baseUrl: vendor.url, auth: { kind: 'header', header: 'x-echo-key', env: 'ECHO_VENDOR_KEY' }, headers: {} },
    },
    models: {
      ...setup.config.models,
      // A gateway name for a vendor model: native bodies reach the vendor with the vendor's name.
      'wan-video': { ...setup.config.models['wan2.2-t2v-plus'], id: 'wan-video', targets: [{ vendor: 'dashscope', upstream: 'wan2.2-t2v-plus', weight: 1 }] },
    },
    routes: [...setup.config.routes, ...ECHO_ROUTES],
    // No default limits: the fuzz of native entries sends thousands of requests a minute with `npm run fuzz`.
    server: { ...setup.config.server, defaultLimits: {} },
    keys: [
      ...setup.config.keys,
      defineKey('granted', ['*'], grants),
      defineKey('other', ['*'], grants),
      defineKey('narrow', ['gpt-*']),
      defineKey('limited', ['*'], { limits: { rpm: 1 } }),
    ],
  };
  const events: UsageEvent[] = [];
  const gateway = createGateway({ config, env: { ...setup.env, ECHO_VENDOR_KEY: ECHO_VENDOR_SECRET }, onUsage: [(event) => events.push(event)] });
  const url = await gateway.listen(0, '127.0.0.1');
  return {
    url,
    key: SIMULATOR_CLIENT_KEY,
    sims: setup.sims,
    echo,
    events,
    gateway,
    async close() {
      await gateway.close();
      await vendor.close();
      await setup.close();
    },
  };
}

/** A raw HTTP answer: status, headers and parsed JSON body. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  json: any;
}

/** Sends a request with its path exactly as given (no URL normalisation of `..` or escapes, unlike fetch). */
export function sendRawPath(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const framing = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(`${url}/`, { method, path, headers: { ...headers, ...framing }, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
