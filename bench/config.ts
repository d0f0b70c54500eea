/**
 * Writes the benchmark's configs: gateway.yaml's default routes and transforms, ten vendors (OpenAI-,
 * Anthropic-, Gemini- and DashScope-protocol, every base URL pointing at a local vendor: the OpenAI- and
 * Anthropic-protocol ones at the static fast vendor, the slow one and the DashScope one at simulators),
 * exactly N models (the bench's own, gateway.yaml's models remapped onto the bench vendors, then generated
 * ones) and the bench key with the deployment's limits, plus the floor proxy's model map describing the
 * same vendors and models.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { AS_DEPLOYED, type GatewayDeployment } from './deployment.ts';

/** Environment variable holding the key the simulated vendors accept. */
export const VENDOR_KEY_ENV = 'BENCH_VENDOR_KEY';
/** Environment variable holding the client key the gateway accepts. */
export const CLIENT_KEY_ENV = 'BENCH_CLIENT_KEY';
/** The model every chat and stream scenario asks for (OpenAI protocol, same name upstream). */
export const CHAT_MODEL = 'gpt-4o-mini';
/** The model of the slow-stream scenario (served by the second, slow vendor process). */
export const SLOW_MODEL = 'bench-slow-chat';
/** The model of the upload scenario (multipart, audio transcriptions). */
export const UPLOAD_MODEL = 'whisper-1';
/** The model of the translated-stream scenario (an Anthropic-protocol vendor behind the OpenAI chat route). */
export const TRANSLATED_MODEL = 'bench-claude';
/** The model of the images scenario (shape A in, DashScope-style envelope task out). */
export const IMAGES_MODEL = 'bench-wan';
/** The transform (from gateway.yaml) that turns a shape-A images body into the envelope. */
const IMAGES_TRANSFORM = 'images-a-to-envelope';

/** Models in the config of the shared floor and gateway (and of the quiet gateway). */
export const MAIN_COUNT = 1000;

/** Keep-alive connections per vendor, written into the YAML and the floor map alike (the gateway default). */
const CONNECTIONS = 128;
/** The slow vendor holds 1,000 streams at once: both proxies may open that many connections to it. */
const SLOW_CONNECTIONS = 1100;

/** The floor proxy's input: vendors (base URL, key variable, pool size) and the vendor of every model. */
export interface FloorMap {
  vendors: Record<string, { baseUrl: string; keyEnv: string; connections: number; protocol: string }>;
  models: Record<string, string>;
}

/** Where the local vendors listen: each simulator's own base URL. */
export interface BenchVendorUrls {
  /** The static fast vendor's OpenAI base URL (`http://127.0.0.1:P/v1`). */
  vendor: string;
  /** The slow OpenAI simulator (`http://127.0.0.1:P/v1`). */
  slowVendor: string;
  /** The static fast vendor's Anthropic base URL (`http://127.0.0.1:P`), streaming as many events as `vendor`. */
  anthropic: string;
  /** The DashScope simulator (`http://127.0.0.1:P/api/v1`). */
  dashscope: string;
}

/** Files written for one model count. */
export interface BenchConfigFiles {
  configFile: string;
  mapFile: string;
  modelCount: number;
  /** How the gateway serving `configFile` runs (log, limits, metrics). */
  deployment: GatewayDeployment;
}

/** Gateway.yaml's vendor names mapped to the bench vendor of the same protocol. */
const VENDOR_RENAMES: Record<string, string> = {
  openai: 'bench-openai',
  anthropic: 'bench-anthropic',
  google: 'bench-google',
  dashscope: 'bench-dashscope',
  'dashscope-compatible': 'bench-compat-1',
  jina: 'bench-compat-2',
};

/** The ten bench vendors: protocol and which local process serves them. */
function defineVendors(urls: BenchVendorUrls): Record<string, Record<string, unknown>> {
  const origin = new URL(urls.vendor).origin;
  const bearer = { bearer: `env:${VENDOR_KEY_ENV}` };
  const openai = (baseUrl: string, connections = CONNECTIONS) => ({ protocol: 'openai', base_url: baseUrl, auth: bearer, timeout: '600s', connections });
  const vendors: Record<string, Record<string, unknown>> = {
    'bench-openai': openai(urls.vendor),
    'bench-slow': openai(urls.slowVendor, SLOW_CONNECTIONS),
    'bench-anthropic': {
      protocol: 'anthropic',
      base_url: urls.anthropic,
      auth: { header: 'x-api-key', value: `env:${VENDOR_KEY_ENV}` },
      headers: { 'anthropic-version': '2023-06-01' },
      connections: CONNECTIONS,
    },
    'bench-google': { protocol: 'gemini', base_url: `${origin}/v1beta`, auth: { header: 'x-goog-api-key', value: `env:${VENDOR_KEY_ENV}` }, connections: CONNECTIONS },
    'bench-dashscope': { protocol: 'dashscope', base_url: urls.dashscope, auth: bearer, connections: CONNECTIONS },
  };
  for (let i = 1; i <= 5; i++) vendors[`bench-compat-${i}`] = openai(urls.vendor);
  return vendors;
}

/** Exactly `count` models: the bench's own five, gateway.yaml's models, then generated ones. */
function defineModels(count: number, defaults: Record<string, any>, vendorNames: string[]): Record<string, unknown> {
  const models = new Map<string, unknown>([
    [CHAT_MODEL, { vendor: 'bench-openai' }],
    [SLOW_MODEL, { vendor: 'bench-slow' }],
    [UPLOAD_MODEL, { vendor: 'bench-openai' }],
    [TRANSLATED_MODEL, { vendor: 'bench-anthropic' }],
    [IMAGES_MODEL, { vendor: 'bench-dashscope', images: { shape: 'envelope', max_n: 4, default_n: 1, transform: IMAGES_TRANSFORM } }],
  ]);
  for (const [id, model] of Object.entries(defaults)) {
    if (models.size >= count) break;
    // Models of a vendor with no bench stand-in (Bedrock: no local vendor in the bench) are left out.
    if (!models.has(id) && VENDOR_RENAMES[model.vendor]) models.set(id, { ...model, vendor: VENDOR_RENAMES[model.vendor] });
  }
  const generated = vendorNames.filter((name) => name !== 'bench-slow');
  for (let i = 0; models.size < count; i++) {
    const vendor = generated[i % generated.length];
    models.set(`${vendor}-model-${String(i).padStart(5, '0')}`, { vendor });
  }
  return Object.fromEntries([...models].slice(0, count));
}

/**
 * The bench config as a YAML-ready object (gateway.yaml's routes and transforms, bench server, and the
 * bench key with the deployment's limits).
 */
export function defineBenchConfig(count: number, urls: BenchVendorUrls, defaults = readDefaultConfig(), deployment = AS_DEPLOYED): Record<string, any> {
  const vendors = defineVendors(urls);
  const key = { name: 'bench', key: `env:${CLIENT_KEY_ENV}`, models: ['*'], ...(deployment.limits ? { limits: { ...deployment.limits } } : {}) };
  return {
    server: { host: '127.0.0.1', port: 0, body_limit: '25mb', store: 'memory', ...(deployment.metrics ? { admin: { host: '127.0.0.1', port: 0 } } : {}) },
    keys: [key],
    vendors,
    models: defineModels(count, defaults.models ?? {}, Object.keys(vendors)),
    transforms: defaults.transforms ?? {},
    routes: (defaults.routes ?? []).map(renameNativeVendor),
  };
}

/** A vendor-native route of gateway.yaml pointed at the bench vendor standing in for its vendor. */
function renameNativeVendor(route: any): any {
  if (!route.native) return route;
  return { ...route, native: { ...route.native, vendor: VENDOR_RENAMES[route.native.vendor] ?? route.native.vendor } };
}

/** The floor map describing the same vendors and models as a bench config. */
export function defineFloorMap(config: Record<string, any>): FloorMap {
  const vendors: FloorMap['vendors'] = {};
  for (const [name, vendor] of Object.entries<any>(config.vendors)) {
    vendors[name] = { baseUrl: vendor.base_url, keyEnv: VENDOR_KEY_ENV, connections: vendor.connections, protocol: vendor.protocol };
  }
  const models: FloorMap['models'] = {};
  for (const [id, model] of Object.entries<any>(config.models)) models[id] = model.vendor;
  return { vendors, models };
}

/** Reads the repository's gateway.yaml (the source of the default routes, transforms and models). */
export function readDefaultConfig(file = 'gateway.yaml'): Record<string, any> {
  return parse(readFileSync(file, 'utf8'));
}

/** Writes `bench-<count>.yaml` (`bench-<count>-<deployment>.yaml` but as deployed) and `floor-<count>.json` into `dir`. */
export async function writeBenchConfig(dir: string, count: number, urls: BenchVendorUrls, deployment = AS_DEPLOYED): Promise<BenchConfigFiles> {
  const defaults = deployment.defaultsYaml === undefined ? readDefaultConfig() : parse(deployment.defaultsYaml);
  const config = defineBenchConfig(count, urls, defaults, deployment);
  const configFile = join(dir, deployment === AS_DEPLOYED ? `bench-${count}.yaml` : `bench-${count}-${deployment.id}.yaml`);
  const mapFile = join(dir, `floor-${count}.json`);
  const header = `# Benchmark config (${count} models, gateway ${deployment.id}), written by bench/config.ts.\n`;
  await writeFile(configFile, header + stringify(config, { lineWidth: 0, aliasDuplicateObjects: false }));
  await writeFile(mapFile, JSON.stringify(defineFloorMap(config)));
  return { configFile, mapFile, modelCount: count, deployment };
}
