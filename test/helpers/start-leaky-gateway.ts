import { compileConfigFile } from '../../src/config/index.ts';
import type { CompiledConfig, ModelEntry, VendorEntry } from '../../src/config/types.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/create-gateway.ts';
import { startLeakyVendor, type LeakProtocol, type LeakyVendor } from './start-leaky-vendor.ts';

/** Every secret the leaky gateway holds, by what it is; keys with characters that URL-encode and JSON-escape differently. */
export const LEAK_ENV = {
  LEAK_OPENAI_KEY: 'sk-leak-openai/Key+1==',
  LEAK_ANTHROPIC_KEY: 'sk-ant-leak "anthropic"/Key+2',
  LEAK_GEMINI_KEY: 'AIzaLeak-gemini/Key+3&x=1',
  LEAK_CLIENT_KEY: 'sk-client-leak-0123456789',
  GATEWAY_TASK_SECRET: 'task-secret-leak-abcdef',
  LEAK_REDIS_URL: 'redis://:redis%2Fpass%20word@127.0.0.1:6390/0',
};
/** The Redis password of `LEAK_REDIS_URL`, decoded. */
export const LEAK_REDIS_PASSWORD = 'redis/pass word';
/** The secret values a response or log line must never contain. */
export const LEAK_SECRETS = [
  LEAK_ENV.LEAK_OPENAI_KEY,
  LEAK_ENV.LEAK_ANTHROPIC_KEY,
  LEAK_ENV.LEAK_GEMINI_KEY,
  LEAK_ENV.LEAK_CLIENT_KEY,
  LEAK_ENV.GATEWAY_TASK_SECRET,
  LEAK_REDIS_PASSWORD,
];

/** Parts of the secrets with no character any encoding changes: a leak in any form contains one. */
const LEAK_CORES = ['sk-leak-openai', 'sk-ant-leak', 'AIzaLeak-gemini', 'sk-client-leak', 'task-secret-leak', 'pass word', 'pass%20word', 'pass+word'];

/** Each way a secret can be written: as is, URL-encoded (both styles), JSON-escaped once and twice. */
function listSecretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2), json, JSON.stringify(json).slice(1, -1)];
}

/** The secrets (whole, in any form, or a recognisable part) that `text` contains: none when nothing leaked. */
export function findLeaks(text: string): string[] {
  return [...LEAK_SECRETS.flatMap(listSecretForms), ...LEAK_CORES].filter((form) => text.includes(form));
}

export type LeakStyle = 'openai' | 'anthropic' | 'gemini';

/** A gateway whose three chat models (`leak-openai`, `leak-anthropic`, `leak-gemini`) are served by one leaky vendor. */
export interface LeakyGateway {
  url: string;
  vendor: LeakyVendor;
  gateway: Gateway;
  config: CompiledConfig;
  /** One chat request in `style` to the model of `protocol`; the raw response. */
  call(style: LeakStyle, protocol: LeakProtocol, stream: boolean): Promise<{ status: number; headers: string; body: string }>;
  close(): Promise<void>;
}

function createModel(id: string, vendor: string): ModelEntry {
  return {
    id,
    targets: [{ vendor, upstream: `${id}-upstream`, weight: 1 }],
    fallback: [],
    routing: { retries: 0, fallbackOn: [], cooldownAfter: 3, cooldownMs: 30_000 },
    chat: { defaultMaxTokens: 64, strict: false },
    ownedBy: vendor,
  };
}

function createRequest(style: LeakStyle, model: string, stream: boolean) {
  const key = LEAK_ENV.LEAK_CLIENT_KEY;
  const headers = { 'content-type': 'application/json' };
  if (style === 'openai') {
    const body = { model, stream, messages: [{ role: 'user', content: 'hi' }] };
    return { path: '/v1/chat/completions', headers: { ...headers, authorization: `Bearer ${key}` }, body };
  }
  if (style === 'anthropic') {
    const body = { model, stream, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    return { path: '/v1/messages', headers: { ...headers, 'x-api-key': key, 'anthropic-version': '2023-06-01' }, body };
  }
  const path = `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
  return { path, headers: { ...headers, 'x-goog-api-key': key }, body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] } };
}

/** Starts the leaky vendor and a gateway holding every secret of {@link LEAK_ENV}, with `options` added. */
export async function startLeakyGateway(options: Partial<GatewayOptions> = {}): Promise<LeakyGateway> {
  const vendor = await startLeakyVendor();
  const { config: base, problems } = await compileConfigFile('gateway.yaml');
  if (!base) throw new Error(problems.map((p) => p.message).join('\n'));
  const leaky = (name: string, from: VendorEntry, path: string, auth: VendorEntry['auth']): VendorEntry =>
    ({ ...from, name, baseUrl: vendor.url + path, auth, proxy: undefined, caFile: undefined });
  const config: CompiledConfig = {
    ...base,
    server: { ...base.server, store: { kind: 'redis', env: 'LEAK_REDIS_URL', failOpen: true } },
    keys: [{ name: 'leak', secret: { env: 'LEAK_CLIENT_KEY' }, models: ['*'], limits: {}, strict: false }],
    vendors: {
      'leak-openai': leaky('leak-openai', base.vendors.openai, '/openai/v1', { kind: 'bearer', env: 'LEAK_OPENAI_KEY' }),
      'leak-anthropic': leaky('leak-anthropic', base.vendors.anthropic, '/anthropic', { kind: 'header', header: 'x-api-key', env: 'LEAK_ANTHROPIC_KEY' }),
      'leak-gemini': leaky('leak-gemini', base.vendors.google, '/gemini/v1beta', { kind: 'query', param: 'key', env: 'LEAK_GEMINI_KEY' }),
    },
    models: Object.fromEntries((['openai', 'anthropic', 'gemini'] as const).map((p) => [`leak-${p}`, createModel(`leak-${p}`, `leak-${p}`)])),
  };
  const gateway = createGateway({ ...options, config, env: { ...LEAK_ENV } });
  const url = await gateway.listen(0, '127.0.0.1');
  return {
    url,
    vendor,
    gateway,
    config,
    async call(style, protocol, stream) {
      const request = createRequest(style, `leak-${protocol}`, stream);
      const response = await fetch(url + request.path, { method: 'POST', headers: request.headers, body: JSON.stringify(request.body) });
      const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
      // A held stream error is released once the first bytes of the answer have arrived.
      const chunks: Buffer[] = [];
      for await (const chunk of response.body ?? []) {
        chunks.push(Buffer.from(chunk));
        vendor.release();
      }
      return { status: response.status, headers, body: Buffer.concat(chunks).toString() };
    },
    async close() {
      await gateway.close(0);
      await vendor.close();
    },
  };
}
