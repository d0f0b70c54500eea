import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ServerSettings } from '../config/types.ts';
import { createLimiter, type Limiter } from '../limits/limiter.ts';
import { createMemoryStore } from '../limits/memory-store.ts';
import { createRedisStore } from '../limits/redis-store.ts';
import type { LimitStore } from '../limits/store.ts';
import { createTargetHealth, type TargetHealth } from '../routing/target-health.ts';
import { createMemoryValues } from '../response-store/memory-values.ts';
import { createResponseStore, type ResponseStore } from '../response-store/response-store.ts';

/** The gateway's stateful services, which outlive config reloads: limits, target cooldowns, Responses state. */
export interface Services {
  store: LimitStore;
  limiter: Limiter;
  health: TargetHealth;
  /** Responses API state kept by the gateway: on the store's backend (Redis), else bounded memory. */
  responses: ResponseStore;
}

/** Services over a given store (memory by default: one process, no setup). */
export function createServices(settings: ServerSettings, store: LimitStore = createMemoryStore(), log?: Logger): Services {
  return {
    store,
    limiter: createLimiter(store, settings.defaultLimits, { log, windowMs: settings.limitWindowMs }),
    health: createTargetHealth(store),
    responses: createResponseStore(store.values ?? createMemoryValues()),
  };
}

/**
 * Services over the store the config names: Redis (shared by every process) when `server.store` says so;
 * otherwise memory, with budgets kept in `server.budget_file` resolved against `configDir`.
 */
export async function openServices(settings: ServerSettings, env: NodeJS.ProcessEnv, log?: Logger, configDir = '.'): Promise<Services> {
  const { store } = settings;
  if (store.kind === 'memory') return createServices(settings, createMemoryStore({ budgetFile: resolve(configDir, settings.budgetFile) }), log);
  const url = env[store.env];
  if (!url) throw new Error(`server.store names env:${store.env}, which is not set`);
  return createServices(settings, await createRedisStore({ url, failOpen: store.failOpen, log }), log);
}
