/**
 * Sets up a benchmark run: the vendor processes (fast and slow OpenAI, Anthropic paced like the fast
 * one, DashScope), the configs and bodies in a
 * temporary directory, and the shared floor and gateway on the 1,000-model config; then checks one chat
 * request through each proxy. `close()` stops every process this started and removes the directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { writeBodies } from './bodies.ts';
import { CHAT_MODEL, CLIENT_KEY_ENV, VENDOR_KEY_ENV, writeBenchConfig, type BenchConfigFiles } from './config.ts';
import type { LoadTool } from './load.ts';
import { getLoadRunner } from './load.ts';
import { hasTaskset, readFirstJsonLine, startNodeProcess, type BenchProcess } from './processes.ts';
import { bundleProxies, startProxy, type ProxyKind, type RunningProxy } from './proxies.ts';
import type { BenchContext, Side } from './scenarios/types.ts';

/** Options of a run. */
export interface SetupOptions {
  quick: boolean;
  rounds: number;
  roundS: number;
  warmupS: number;
  loadTool: LoadTool;
  /** Directory for `--cpu-prof` output of the shared floor and gateway (no profiling when absent). */
  profileDir?: string;
}

/** A set-up run: the context scenarios use, and its teardown. */
export interface BenchSetup {
  ctx: BenchContext;
  close(): Promise<void>;
}

const MAIN_COUNT = 1000;

async function startVendor(name: string, args: string[], cpu: number | undefined, owned: BenchProcess[]): Promise<string> {
  const proc = startNodeProcess({ name, args: ['bench/vendor.ts', ...args], cpu });
  owned.push(proc);
  const { url } = await readFirstJsonLine<{ url: string }>(proc);
  return url;
}

function toSide(label: string, proxy: RunningProxy): Side {
  return { label, kind: proxy.kind, pid: proxy.proc.pid, origin: proxy.origin };
}

/** Sends one chat request through a proxy; throws unless the vendor's completion comes back. */
async function checkChat(side: Side, clientKey: string): Promise<void> {
  const response = await request(`${side.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'ping' }] }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200 || !text.includes('"chat.completion"')) {
    throw new Error(`${side.label} did not pass a chat request through: ${response.statusCode} ${text.slice(0, 300)}`);
  }
}

/** Starts everything a run needs. */
export async function setupBench(options: SetupOptions): Promise<BenchSetup> {
  const tmpDir = await mkdtemp(join(tmpdir(), 'gateway-bench-'));
  const owned: BenchProcess[] = [];
  const proxies: RunningProxy[] = [];
  const close = async () => {
    await Promise.all([...proxies.map((p) => p.stop()), ...owned.map((p) => p.stop())]);
    await rm(tmpDir, { recursive: true, force: true });
  };
  try {
    const pinned = hasTaskset();
    const cpu = pinned ? { proxy: 1, load: 0 } : {};
    const vendorKey = `sk-bench-vendor-${randomBytes(8).toString('hex')}`;
    const clientKey = `sk-bench-client-${randomBytes(8).toString('hex')}`;
    const env = { [VENDOR_KEY_ENV]: vendorKey, [CLIENT_KEY_ENV]: clientKey };
    // The Anthropic vendor streams with the fast vendor's options, so a translated stream carries as many
    // content events as the passthrough stream it is compared with.
    const fastArgs = ['--key', vendorKey];
    await bundleProxies();
    const [vendor, slowVendor, anthropic, dashscope] = await Promise.all([
      startVendor('vendor', fastArgs, cpu.load, owned),
      startVendor('slow vendor', ['--key', vendorKey, '--stream-events', '20', '--stream-interval-ms', '50'], cpu.load, owned),
      startVendor('anthropic vendor', [...fastArgs, '--protocol', 'anthropic'], cpu.load, owned),
      startVendor('dashscope vendor', ['--key', vendorKey, '--protocol', 'dashscope'], cpu.load, owned),
    ]);
    const vendorUrls = { vendor, slowVendor, anthropic, dashscope };
    const largeCount = options.quick ? MAIN_COUNT : 10_000;
    const configs = new Map<number, BenchConfigFiles>();
    for (const count of new Set([10, MAIN_COUNT, largeCount])) configs.set(count, await writeBenchConfig(tmpDir, count, vendorUrls));
    const bodies = await writeBodies(tmpDir);
    const launch = async (kind: ProxyKind, count: number, nodeFlags?: string[]): Promise<RunningProxy> => {
      const proxy = await startProxy(kind, { files: configs.get(count)!, cpu: cpu.proxy, env, nodeFlags });
      proxies.push(proxy);
      return proxy;
    };
    const profile = (name: string) => (options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(options.profileDir, name)] : undefined);
    const [floor, gateway] = await Promise.all([launch('floor', MAIN_COUNT, profile('floor')), launch('gateway', MAIN_COUNT, profile('gateway'))]);
    const ctx: BenchContext = {
      ...options,
      tmpDir,
      load: getLoadRunner(options.loadTool),
      cpu,
      clientKey,
      env,
      bodies,
      vendorUrls,
      configs,
      largeCount,
      floor: toSide('floor', floor),
      gateway: toSide('gateway', gateway),
      startProxy: async (kind, count) => {
        const proxy = await launch(kind, count);
        return { ...proxy, stop: () => proxy.stop() };
      },
      notes:
        options.loadTool === 'autocannon'
          ? ['autocannon keeps whole milliseconds: its latencies here are means (connections / requests per second), not medians.']
          : [],
    };
    await checkChat(ctx.floor, clientKey);
    await checkChat(ctx.gateway, clientKey);
    return { ctx, close };
  } catch (error) {
    await close();
    throw error;
  }
}
