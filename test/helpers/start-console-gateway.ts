import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createAdminListener } from '../../src/admin/create-admin-app.ts';
import { createGatewaySources } from '../../src/admin/index.ts';
import type { SignInLimit } from '../../src/admin/gate-admin-key.ts';
import type { CompiledConfig, KeyEntry, ServerSettings } from '../../src/config/types.ts';
import { startConsole, type ConsoleRuntime } from '../../src/console/start-console.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createGatewayMetrics } from '../../src/metrics/index.ts';
import { createServices } from '../../src/runtime/services.ts';
import { readAnswer } from './read-answer.ts';
import { startTestGateway, type TestGateway } from './start-gateway.ts';

/** The console's admin key (name `ops`) and a client key `team` (rpm 100) of {@link startConsoleGateway}. */
export const OPS_SECRET = 'sk-console-ops-secret';
export const TEAM_SECRET = 'sk-console-team-secret';

const defineKey = (name: string, secret: string, extra: Partial<KeyEntry>): KeyEntry => ({
  name, secret: { sha256: createHash('sha256').update(secret).digest('hex') }, models: ['*'], limits: {}, strict: false, ...extra,
});

/** A gateway with the console on: wired as `gateway start` wires it (feed, overrides, admin listener). */
export interface ConsoleGateway extends TestGateway {
  adminUrl: string;
  console: ConsoleRuntime;
  /** The folder the overrides file is kept in (memory store). */
  configDir: string;
  /** Log lines written so far (parsed). */
  logs: any[];
  /** Calls the admin API with the ops key (or `key`), a JSON body when given. */
  callAdmin(path: string, options?: { method?: string; body?: unknown; key?: string }): Promise<{ status: number; json: any; text: string; headers: Headers }>;
}

/**
 * Starts the simulators, a gateway on the default config plus `ops` (admin) and `team` keys with
 * `server.console` on, its console (overrides in `configDir`, or in `store`'s values when given) and its
 * admin listener on 127.0.0.1 (refused sign-ins limited by `signInLimit`); `configure` changes the config first.
 */
export async function startConsoleGateway(
  options: { store?: LimitStore; configDir?: string; signInLimit?: SignInLimit; configure?: (config: CompiledConfig) => CompiledConfig } = {},
): Promise<ConsoleGateway> {
  const logs: any[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const configDir = options.configDir ?? (await mkdtemp(join(tmpdir(), 'console-test-')));
  const services = createServices({ defaultLimits: {} } as unknown as ServerSettings, options.store);
  let base: CompiledConfig | undefined;
  let gw: TestGateway | undefined;
  const runtime = await startConsole(services.store.values, configDir, logger, () => gw?.gateway.reload(runtime.merge(base!)));
  const metrics = createGatewayMetrics();
  gw = await startTestGateway(
    (config) => ({
      ...(options.configure ? options.configure(config) : config),
      server: { ...config.server, defaultLimits: {}, admin: { host: '127.0.0.1', port: 0 }, console: true },
      keys: [...config.keys, defineKey('ops', OPS_SECRET, { models: [], admin: true }), defineKey('team', TEAM_SECRET, { limits: { rpm: 100 } })],
    }),
    { onUsage: [runtime.feed.record, metrics.record], services },
  );
  base = gw.config;
  gw.gateway.reload(runtime.merge(base));
  const gateway = gw.gateway;
  const started = gw;
  const sources = {
    ...createGatewaySources(gateway, services, metrics),
    logger,
    console: runtime.createSources(() => gateway.getSnapshot().config, () => base!, { getEnv: () => started.env, services, onUsage: [runtime.feed.record] }),
  };
  const server: Server = createServer(createAdminListener(sources, options.signInLimit));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const adminUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...started,
    adminUrl,
    console: runtime,
    configDir,
    logs,
    async callAdmin(path, call = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${call.key ?? OPS_SECRET}` };
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      return readAnswer(await fetch(adminUrl + path, { method: call.method ?? (call.body === undefined ? 'GET' : 'POST'), headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }));
    },
    async close() {
      runtime.overrides.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await started.close();
      if (!options.configDir) await rm(configDir, { recursive: true, force: true });
    },
  };
}
