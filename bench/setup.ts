/**
 * Sets up a benchmark run: the vendor processes (the static fast vendor answering OpenAI chat and
 * Anthropic messages, the slow OpenAI simulator, the DashScope simulator), the configs and bodies in a
 * temporary directory, and the shared floor and gateway (as deployed) on the 1,000-model config; then
 * checks one chat request through each proxy, and that the gateway logs and limits as deployed.
 * `close()` stops every process this started and removes the directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { buildBaseline, hasMetrics, readBaselineDefaults } from './baseline.ts';
import { writeBodies } from './bodies.ts';
import { checkDeployment } from './check-deployment.ts';
import { CHAT_MODEL, CLIENT_KEY_ENV, MAIN_COUNT, VENDOR_KEY_ENV, writeBenchConfig, type BenchConfigFiles } from './config.ts';
import { AS_DEPLOYED, defineBaselineDeployment, type GatewayDeployment } from './deployment.ts';
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
  /** A commit whose gateway replaces the floor as the reference (`--baseline REF`). */
  baseline?: string;
}

/** A set-up run: the context scenarios use, and its teardown. */
export interface BenchSetup {
  ctx: BenchContext;
  close(): Promise<void>;
}

async function startVendor(name: string, args: string[], cpu: number | undefined, owned: BenchProcess[]): Promise<{ url: string; origin: string; pid: number }> {
  const proc = startNodeProcess({ name, args, cpu });
  owned.push(proc);
  const { url, origin } = await readFirstJsonLine<{ url: string; origin?: string }>(proc);
  return { url, origin: origin ?? new URL(url).origin, pid: proc.pid };
}

function toSide(label: string, proxy: RunningProxy): Side {
  return { label, kind: proxy.kind, pid: proxy.proc.pid, origin: proxy.origin, logFile: proxy.logFile };
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
    // One static vendor answers OpenAI chat and Anthropic messages with canned streams of as many content
    // events, so a translated stream carries as many as the passthrough stream it is compared with.
    await bundleProxies();
    const baselineCommit = options.baseline ? await buildBaseline(options.baseline) : undefined;
    const baseline = baselineCommit ? defineBaselineDeployment(`gateway at ${baselineCommit}`, readBaselineDefaults(baselineCommit), hasMetrics(baselineCommit)) : undefined;
    const [fast, slowVendor, dashscope] = await Promise.all([
      startVendor('static vendor', ['bench/static-vendor.ts', '--key', vendorKey], cpu.load, owned),
      startVendor('slow vendor', ['bench/vendor.ts', '--key', vendorKey, '--stream-events', '20', '--stream-interval-ms', '50'], cpu.load, owned),
      startVendor('dashscope vendor', ['bench/vendor.ts', '--key', vendorKey, '--protocol', 'dashscope'], cpu.load, owned),
    ]);
    const vendorUrls = { vendor: fast.url, slowVendor: slowVendor.url, anthropic: fast.origin, dashscope: dashscope.url };
    const largeCount = options.quick ? MAIN_COUNT : 10_000;
    const configs = new Map<number, BenchConfigFiles>();
    for (const count of new Set([10, MAIN_COUNT, largeCount])) configs.set(count, await writeBenchConfig(tmpDir, count, vendorUrls));
    const bodies = await writeBodies(tmpDir);
    const launch = async (kind: ProxyKind, count: number, nodeFlags?: string[], deployment = kind === 'baseline' ? baseline! : AS_DEPLOYED): Promise<RunningProxy> => {
      const files = deployment === AS_DEPLOYED ? configs.get(count)! : await writeBenchConfig(tmpDir, count, vendorUrls, deployment);
      const proxy = await startProxy(kind, { files, cpu: cpu.proxy, env, nodeFlags });
      proxies.push(proxy);
      return proxy;
    };
    const profile = (name: string) => (options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(options.profileDir, name)] : undefined);
    const referenceKind: ProxyKind = baselineCommit ? 'baseline' : 'floor';
    const [floor, gateway] = await Promise.all([launch(referenceKind, MAIN_COUNT, profile('floor')), launch('gateway', MAIN_COUNT, profile('gateway'))]);
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
      floor: toSide(baselineCommit ? `gateway at ${baselineCommit}` : 'floor', floor),
      gateway: toSide(AS_DEPLOYED.label, gateway),
      vendor: { label: 'vendor, directly', kind: 'vendor', pid: fast.pid, origin: fast.origin, auth: { authorization: `Bearer ${vendorKey}` } },
      startProxy: async (kind, count, deployment?: GatewayDeployment, nodeFlags?: string[]) => {
        const proxy = await launch(kind, count, nodeFlags, deployment ?? (kind === 'baseline' ? baseline : AS_DEPLOYED));
        return { ...proxy, stop: () => proxy.stop() };
      },
      notes:
        options.loadTool === 'autocannon'
          ? ['autocannon keeps whole milliseconds: its latencies here are means (connections / requests per second), not medians.']
          : [],
    };
    await checkChat(ctx.floor, clientKey);
    await checkChat(ctx.gateway, clientKey);
    await checkDeployment({ origin: gateway.origin, logFile: gateway.logFile, clientKey, deployment: AS_DEPLOYED });
    return { ctx, close };
  } catch (error) {
    await close();
    throw error;
  }
}
