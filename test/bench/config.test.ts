import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MODEL,
  defineBenchConfig,
  IMAGES_MODEL,
  readDefaultConfig,
  SLOW_MODEL,
  TRANSLATED_MODEL,
  UPLOAD_MODEL,
  writeBenchConfig,
} from '../../bench/config.ts';
import { compileConfigFile } from '../../src/config/index.ts';

const URLS = {
  vendor: 'http://127.0.0.1:4001/v1',
  slowVendor: 'http://127.0.0.1:4002/v1',
  anthropic: 'http://127.0.0.1:4003',
  dashscope: 'http://127.0.0.1:4004/api/v1',
};

describe('bench configs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-config-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('holds exactly the asked number of models, the bench models first, across ten vendors', () => {
    for (const count of [10, 1000, 10_000]) {
      const config = defineBenchConfig(count, URLS);
      const ids = Object.keys(config.models);
      expect(ids).toHaveLength(count);
      expect(ids.slice(0, 5)).toEqual([CHAT_MODEL, SLOW_MODEL, UPLOAD_MODEL, TRANSLATED_MODEL, IMAGES_MODEL]);
      expect(Object.keys(config.vendors)).toHaveLength(10);
    }
  });

  it("keeps gateway.yaml's routes and transforms and points every vendor (native routes' too) at the local vendors", () => {
    const defaults = readDefaultConfig();
    const config = defineBenchConfig(1000, URLS, defaults);
    const withoutNative = (routes: any[]) => routes.map(({ native, ...route }) => ({ ...route, native: native?.name }));
    expect(withoutNative(config.routes)).toEqual(withoutNative(defaults.routes));
    // Vendor-native routes point at the bench vendor standing in for theirs.
    for (const route of config.routes.filter((r: any) => r.native)) expect(config.vendors[route.native.vendor]).toBeDefined();
    expect(config.transforms).toEqual(defaults.transforms);
    for (const vendor of Object.values<any>(config.vendors)) expect(vendor.base_url).toMatch(/^http:\/\/127\.0\.0\.1:400[1-4](\/|$)/);
    expect(config.models[SLOW_MODEL].vendor).toBe('bench-slow');
    expect(config.vendors['bench-slow'].base_url).toBe(URLS.slowVendor);
  });

  it('writes a config the gateway checker accepts and a floor map of the same models', async () => {
    const files = await writeBenchConfig(dir, 1000, URLS);
    const { config, problems } = await compileConfigFile(files.configFile);
    expect(problems).toEqual([]);
    expect(Object.keys(config!.models)).toHaveLength(1000);
    expect(config!.models[CHAT_MODEL].targets[0]).toMatchObject({ vendor: 'bench-openai', upstream: CHAT_MODEL });
    const map = JSON.parse(await readFile(files.mapFile, 'utf8'));
    expect(Object.keys(map.models).sort()).toEqual(Object.keys(config!.models).sort());
    expect(map.vendors['bench-openai']).toEqual({ baseUrl: URLS.vendor, keyEnv: 'BENCH_VENDOR_KEY', connections: config!.vendors['bench-openai'].connections, protocol: 'openai' });
    // The floor translates for an Anthropic-protocol vendor (bench/floor-translate.ts): it needs the protocol.
    expect(map.vendors['bench-anthropic'].protocol).toBe('anthropic');
  });

  it('serves the translated model from an Anthropic-protocol vendor at the Anthropic simulator, keyed by x-api-key', async () => {
    const files = await writeBenchConfig(dir, 10, URLS);
    const { config, problems } = await compileConfigFile(files.configFile);
    expect(problems).toEqual([]);
    expect(config!.models[TRANSLATED_MODEL].targets).toEqual([{ vendor: 'bench-anthropic', upstream: TRANSLATED_MODEL, weight: 1 }]);
    const vendor = config!.vendors['bench-anthropic'];
    expect(vendor).toMatchObject({ protocol: 'anthropic', baseUrl: URLS.anthropic, headers: { 'anthropic-version': '2023-06-01' } });
    expect(vendor.auth).toEqual({ kind: 'header', header: 'x-api-key', env: 'BENCH_VENDOR_KEY' });
  });

  it('serves the images model as a shape-A -> envelope model of a DashScope-protocol vendor at the DashScope simulator', async () => {
    const files = await writeBenchConfig(dir, 10, URLS);
    const { config, problems } = await compileConfigFile(files.configFile);
    expect(problems).toEqual([]);
    const model = config!.models[IMAGES_MODEL];
    expect(model.targets[0]).toMatchObject({ vendor: 'bench-dashscope', upstream: IMAGES_MODEL });
    expect(model.images).toMatchObject({ shape: 'envelope', maxN: 4, defaultN: 1, transform: 'images-a-to-envelope', rehost: false });
    expect(config!.transforms['images-a-to-envelope']).toBeDefined();
    expect(config!.vendors['bench-dashscope']).toMatchObject({ protocol: 'dashscope', baseUrl: URLS.dashscope });
  });
});
