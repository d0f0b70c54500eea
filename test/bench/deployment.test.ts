import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDeployment } from '../../bench/check-deployment.ts';
import { CLIENT_KEY_ENV, VENDOR_KEY_ENV, writeBenchConfig, type BenchConfigFiles } from '../../bench/config.ts';
import { AS_DEPLOYED, BENCH_KEY_LIMITS, describeDeployment, QUIET } from '../../bench/deployment.ts';
import { findFreePort, startNodeProcess, waitForHealthy, type BenchProcess } from '../../bench/processes.ts';
import { defineLogFile, defineProxyArgs } from '../../bench/proxies.ts';
import { createStaticVendorListener } from '../../bench/static-vendor.ts';
import { compileConfigFile } from '../../src/config/index.ts';

const VENDOR_KEY = 'sk-deployment-test-vendor';
const CLIENT_KEY = 'sk-deployment-test-client';

/** Serves a bench config with `src/cli.ts start` (the TypeScript entry of the bundle), as the bench would. */
async function startGateway(files: BenchConfigFiles): Promise<{ proc: BenchProcess; origin: string; logFile?: string }> {
  const port = await findFreePort();
  const logFile = defineLogFile('gateway', files, port);
  const [, ...args] = defineProxyArgs('gateway', files, port);
  const proc = startNodeProcess({
    name: `gateway (${files.deployment.id})`,
    args: ['src/cli.ts', ...args],
    env: { [VENDOR_KEY_ENV]: VENDOR_KEY, [CLIENT_KEY_ENV]: CLIENT_KEY },
    stdoutFile: logFile,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealthy(proc, origin);
  return { proc, origin, logFile };
}

describe('the gateway deployments the bench runs', () => {
  let dir: string;
  let vendor: Server;
  const urls = { vendor: '', slowVendor: '', anthropic: '', dashscope: 'http://127.0.0.1:9/api/v1' };
  const received: { url: string; authorization?: string }[] = [];
  const started: BenchProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-deployment-test-'));
    vendor = createServer(createStaticVendorListener({ key: VENDOR_KEY, onRequest: (req) => received.push({ url: req.url!, authorization: req.headers.authorization }) }));
    await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
    Object.assign(urls, { vendor: `${origin}/v1`, slowVendor: `${origin}/v1`, anthropic: origin });
  });
  afterAll(async () => {
    await Promise.all(started.map((proc) => proc.stop()));
    vendor?.closeAllConnections();
    await new Promise((resolve) => vendor?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('as deployed: the log at info into a file beside the config, and never-reached limits on the bench key', async () => {
    const files = await writeBenchConfig(dir, 10, urls);
    const { config, problems } = await compileConfigFile(files.configFile);
    expect(problems).toEqual([]);
    expect(config!.keys).toEqual([expect.objectContaining({ name: 'bench', limits: BENCH_KEY_LIMITS })]);
    expect(config!.server.admin).toEqual({ host: '127.0.0.1', port: 0 });
    expect(defineProxyArgs('gateway', files, 4000).join(' ')).toContain('--log-level info');
    expect(defineLogFile('gateway', files, 4000)).toBe(join(dir, 'gateway-4000.log'));
    expect(defineLogFile('floor', files, 4000)).toBeUndefined();
    expect(describeDeployment(AS_DEPLOYED)).toBe(
      'request log at info written to a file (stdout redirected, not a TTY); per-key limits on the bench key (rpm 1,000,000,000, ' +
        'tpm 1,000,000,000,000, concurrency 100,000: never reached, so usage is read and charged on every request); metrics on (server.admin set: every request recorded in the metrics)',
    );
  });

  it('quiet: the log silent, no file, and no limits', async () => {
    const files = await writeBenchConfig(dir, 10, urls, QUIET);
    expect(files.configFile).toBe(join(dir, 'bench-10-quiet.yaml'));
    const { config, problems } = await compileConfigFile(files.configFile);
    expect(problems).toEqual([]);
    expect(config!.keys[0].limits).toEqual({});
    expect(config!.server.admin).toBeUndefined();
    expect(defineProxyArgs('gateway', files, 4000).join(' ')).toContain('--log-level silent');
    expect(defineLogFile('gateway', files, 4000)).toBeUndefined();
    expect(describeDeployment(QUIET)).toBe('request log silent; no limits; metrics off');
  });

  it('a gateway started as deployed writes a request line per chat into its file and charges the usage to the key', async () => {
    const gateway = await startGateway(await writeBenchConfig(dir, 10, urls));
    started.push(gateway.proc);
    received.length = 0;
    await checkDeployment({ origin: gateway.origin, logFile: gateway.logFile, clientKey: CLIENT_KEY, deployment: AS_DEPLOYED });
    const lines = (await readFile(gateway.logFile!, 'utf8')).split('\n').filter((line) => line.includes('"msg":"request"'));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, msg: 'request' });
    expect(received).toEqual(Array(2).fill({ url: '/v1/chat/completions', authorization: `Bearer ${VENDOR_KEY}` }));
  });

  it('the deployment check fails a quiet gateway held to the as-deployed expectations', async () => {
    const gateway = await startGateway(await writeBenchConfig(dir, 10, urls, QUIET));
    started.push(gateway.proc);
    await expect(checkDeployment({ origin: gateway.origin, clientKey: CLIENT_KEY, deployment: AS_DEPLOYED })).rejects.toThrow(/limits are not on/);
    await expect(checkDeployment({ origin: gateway.origin, clientKey: CLIENT_KEY, deployment: { ...AS_DEPLOYED, limits: undefined } })).rejects.toThrow(
      /should log to a file but has none/,
    );
    await checkDeployment({ origin: gateway.origin, clientKey: CLIENT_KEY, deployment: QUIET });
  });
});
