import { createHash } from 'node:crypto';
import { createGatewaySources, startAdminListener, type AdminListener } from '../../src/admin/index.ts';
import type { CompiledConfig, KeyEntry, ServerSettings } from '../../src/config/types.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createGatewayMetrics } from '../../src/metrics/index.ts';
import { createServices, type Services } from '../../src/runtime/services.ts';
import { readAnswer } from './read-answer.ts';
import { startTestGateway, type TestGateway } from './start-gateway.ts';

/** The admin key of {@link startAdminGateway} (key name `ops`). */
export const ADMIN_SECRET = 'sk-admin-ops-secret';

/** A client key limited to one request a minute (key name `tight`). */
export const TIGHT_SECRET = 'sk-client-tight';

function defineKey(name: string, secret: string, extra: Partial<KeyEntry>): KeyEntry {
  return { name, secret: { sha256: createHash('sha256').update(secret).digest('hex') }, models: ['*'], limits: {}, strict: false, ...extra };
}

/** A test gateway with its metrics and its admin listener on 127.0.0.1. */
export interface AdminGateway extends TestGateway {
  admin: AdminListener;
  services: Services;
  /** GET on the admin listener, with `headers`. */
  getAdmin(path: string, headers?: Record<string, string>): Promise<{ status: number; text: string; json: any; headers: Headers }>;
}

/**
 * Starts the simulators, a gateway on the default config (plus an admin key `ops` and the client key
 * `tight`, no default limits) whose usage events feed its metrics, and its admin listener. `store`
 * replaces the in-memory limit store (e.g. Redis); `configure` changes the compiled config further.
 */
export async function startAdminGateway(
  options: { store?: LimitStore; configure?: (config: CompiledConfig) => CompiledConfig } = {},
): Promise<AdminGateway> {
  const metrics = createGatewayMetrics();
  const services = createServices({ defaultLimits: {} } as unknown as ServerSettings, options.store);
  const configure = (config: CompiledConfig): CompiledConfig => {
    const withKeys: CompiledConfig = {
      ...config,
      server: { ...config.server, defaultLimits: {}, admin: { host: '127.0.0.1', port: 0 } },
      keys: [...config.keys, defineKey('ops', ADMIN_SECRET, { models: [], admin: true }), defineKey('tight', TIGHT_SECRET, { limits: { rpm: 1 } })],
    };
    return options.configure ? options.configure(withKeys) : withKeys;
  };
  const gw = await startTestGateway(configure, { onUsage: [metrics.record], services });
  const { gateway } = gw;
  metrics.watch({ getSnapshot: gateway.getSnapshot, inFlight: gateway.inFlight, streamsInFlight: gateway.streamsInFlight, storeStats: services.store.stats });
  const admin = await startAdminListener(createGatewaySources(gateway, services, metrics), '127.0.0.1', 0);
  return {
    ...gw,
    admin,
    services,
    async getAdmin(path, headers = {}) {
      return readAnswer(await fetch(admin.url + path, { headers }));
    },
    async close() {
      await admin.close();
      await gw.close();
    },
  };
}
