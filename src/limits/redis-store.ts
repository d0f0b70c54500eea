import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { getLimitsLogger } from './log.ts';
import { defineLimitScripts } from './redis-scripts.ts';
import { StoreUnavailableError, TARGET_STALE_MS } from './store.ts';
import type { AdmitResult, AdmitVerdict, LimitStore, ReserveResult, ReserveVerdict, StoreStats, TargetStatus, ValueStore, WindowState } from './store.ts';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** While Redis is unreachable: admit requests (true) or answer 503 (false). */
  failOpen: boolean;
  /** A command without a reply after this many ms fails (default 500): Redis never hangs a request. */
  commandTimeoutMs?: number;
  /** Delay before reconnect attempt `n` (default min(100 * n, 2000) ms). */
  reconnectDelayMs?: (attempt: number) => number;
  /** How long start-up waits for the first connection before serving anyway (default 2000 ms). */
  connectWaitMs?: number;
  /** A concurrency slot not refreshed for this long expires (default 30 s; refreshed every third of it). */
  slotTtlMs?: number;
  /** Prefix of every key (default `gw:`). */
  prefix?: string;
  log?: Logger;
}

const VERDICTS: readonly AdmitVerdict[] = ['ok', 'rpm', 'tpm', 'concurrency'];
const RESERVE_VERDICTS: readonly ReserveVerdict[] = ['ok', 'tpm', 'budget'];
const TARGET_STATES: readonly TargetStatus['state'][] = ['ready', 'cooling', 'probe'];

/**
 * A store shared by every gateway process and machine through one Redis: each operation is one atomic
 * Lua script, so a limit of 100 RPM is 100 RPM across any number of gateways. Commands fail fast while
 * Redis is unreachable (no offline queue, no resend, a command timeout); the client reconnects by itself
 * and the outage is logged once, when it starts, and once more when it ends.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<LimitStore> {
  const log = getLimitsLogger(options.log);
  const prefix = options.prefix ?? 'gw:';
  const slotTtlMs = options.slotTtlMs ?? 30_000;
  const reconnectDelay = options.reconnectDelayMs ?? ((n: number) => Math.min(100 * n, 2000));
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: 2000,
    retryStrategy: (times) => reconnectDelay(times),
  });
  const scripts = defineLimitScripts(redis);
  const stats: StoreStats = { commands: 0, errors: 0, seconds: 0, reachable: false };
  const outage = createOutageLog(log, options.failOpen, stats);
  let closing = false;
  redis.on('error', (error) => outage.down(error));
  redis.on('close', () => closing || outage.down(new Error('connection closed')));
  redis.on('ready', () => outage.up());

  // Requests, token hash, token set, slots: one hash tag per key name, so that a cluster keeps them together.
  // Names this process's entries in request windows (unique across processes).
  const entryPrefix = `${randomBytes(6).toString('hex')}:`;
  let entryCounter = 0;
  const keyCache = new Map<string, readonly [string, string, string, string]>();
  const keysOf = (id: string) => {
    let keys = keyCache.get(id);
    if (!keys) keyCache.set(id, (keys = [`${prefix}{${id}}:rz`, `${prefix}{${id}}:tl`, `${prefix}{${id}}:tz`, `${prefix}{${id}}:c`]));
    return keys;
  };
  const spendKeysOf = (id: string, period = '-') => {
    const keys = keysOf(id);
    return [keys[1], keys[2], `${prefix}{${id}}:b:${period}`];
  };
  const targetKey = (id: string) => `${prefix}target:{${id}}`;

  async function call<T>(run: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    stats.commands++;
    try {
      const value = await run();
      stats.seconds += (performance.now() - startedAt) / 1000;
      outage.up();
      return value;
    } catch (error) {
      stats.seconds += (performance.now() - startedAt) / 1000;
      stats.errors++;
      outage.down(error);
      throw new StoreUnavailableError(error);
    }
  }

  const held = new Map<string, Set<string>>();
  const refresh = setInterval(() => {
    for (const [key, slots] of held) {
      if (slots.size === 0) held.delete(key);
      else scripts.touch(key, slotTtlMs, ...slots).catch((error) => outage.down(error));
    }
  }, Math.max(10, Math.floor(slotTtlMs / 3)));
  refresh.unref();

  await waitForReady(redis, options.connectWaitMs ?? 2000).catch((error) => outage.down(error));

  return {
    failOpen: options.failOpen,
    stats,
    async admit(request): Promise<AdmitResult> {
      const { rpm = 0, tpm = 0, concurrency = 0 } = request;
      const keys = keysOf(request.id);
      const reply = await call(() =>
        scripts.admit(keys, rpm, tpm, concurrency, request.windowMs, request.slot ?? '', slotTtlMs, rpm > 0 ? entryPrefix + (++entryCounter).toString(36) : ''),
      );
      const [code, requestsUsed, requestsTtl, tokensUsed, tokensTtl, inUse] = reply;
      if (code === 0 && concurrency > 0 && request.slot) getSet(held, keys[3]).add(request.slot);
      return {
        verdict: VERDICTS[code],
        requests: rpm > 0 ? toState(code === 0, rpm, requestsUsed, requestsTtl) : undefined,
        tokens: tpm > 0 ? toState(code !== 2, tpm, tokensUsed, tokensTtl) : undefined,
        concurrency: concurrency > 0 ? { limit: concurrency, inUse } : undefined,
      };
    },
    async charge(id, tokens, windowMs) {
      if (!(tokens > 0)) return;
      const keys = keysOf(id);
      await call(() => scripts.charge([keys[1], keys[2]], Math.round(tokens), windowMs));
    },
    async reserve(request): Promise<ReserveResult> {
      const { tpm, budget } = request;
      const keys = spendKeysOf(request.id, budget?.period);
      const args = [tpm, request.entry, Math.round(request.tokens), request.windowMs, budget?.limitNano ?? 0, request.costNano, budget?.ttlMs ?? 0];
      const [code, used, resetMs, spent] = await call(() => scripts.reserve(keys, ...args));
      const result: ReserveResult = { verdict: RESERVE_VERDICTS[code] };
      if (tpm > 0) result.tokens = toState(code !== 1, tpm, used, resetMs);
      if (budget) result.spentNano = spent;
      return result;
    },
    async settle(request) {
      const { budget } = request;
      const keys = spendKeysOf(request.id, budget?.period);
      const args = [
        request.tpm,
        request.entry,
        Math.round(request.reservedTokens),
        Math.round(request.tokens),
        request.windowMs,
        budget ? 1 : 0,
        request.reservedNano,
        request.costNano,
        budget?.ttlMs ?? 0,
      ];
      await call(() => scripts.settle(keys, ...args));
    },
    async release(id, slot) {
      const key = keysOf(id)[3];
      held.get(key)?.delete(slot);
      await call(() => redis.zrem(key, slot));
    },
    async checkTarget(id, leaseMs) {
      return toStatus(await call(() => scripts.checkTarget(targetKey(id), leaseMs, TARGET_STALE_MS)));
    },
    async failTarget(id, threshold, cooldownMs) {
      const reply = await call(() => scripts.failTarget(targetKey(id), threshold, cooldownMs, TARGET_STALE_MS));
      return toStatus(reply);
    },
    async clearTarget(id) {
      await call(() => redis.del(targetKey(id)));
    },
    values: createRedisValues(redis, `${prefix}v:`, call),
    async close() {
      closing = true;
      clearInterval(refresh);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Plain values with a TTL on the limits' own connection (one pipeline per call). */
function createRedisValues(redis: Redis, prefix: string, call: <T>(run: () => Promise<T>) => Promise<T>): ValueStore {
  return {
    async get(key) {
      const value = await call(() => redis.get(prefix + key));
      return value ?? undefined;
    },
    async set(entries, ttlMs) {
      if (entries.length === 0) return;
      const pipeline = redis.multi();
      for (const [key, value] of entries) pipeline.set(prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)));
      const replies = await call(() => pipeline.exec());
      const failed = replies?.find(([error]) => error);
      if (failed) throw failed[0];
    },
    async delete(keys) {
      if (keys.length === 0) return;
      await call(() => redis.del(...keys.map((key) => prefix + key)));
    },
    async keep(key, value, ttlMs) {
      // SET NX then GET in one transaction: every process answers the first writer's value.
      const replies = await call(() => redis.multi().set(prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)), 'NX').get(prefix + key).exec());
      const failed = replies?.find(([error]) => error);
      if (failed) throw failed[0];
      return String(replies![1][1]);
    },
  };
}

/** Logs an outage once when it starts and once when it ends; `down`/`up` are cheap to call often. */
function createOutageLog(log: Logger, failOpen: boolean, stats: StoreStats) {
  let healthy = true;
  return {
    down(error: unknown) {
      stats.reachable = false;
      if (!healthy) return;
      healthy = false;
      const policy = failOpen ? 'fail-open: requests are admitted unchecked' : 'fail-closed: requests get 503';
      log.warn({ err: error }, `limit store (redis) unreachable; ${policy}; reconnecting`);
    },
    up() {
      stats.reachable = true;
      if (healthy) return;
      healthy = true;
      log.info('limit store (redis) reachable again; limits are enforced');
    },
  };
}

async function waitForReady(redis: Redis, waitMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  const signal = AbortSignal.timeout(waitMs);
  await once(redis, 'ready', { signal }).catch(() => {
    throw new Error(`redis not ready after ${waitMs} ms`);
  });
}

function getSet(map: Map<string, Set<string>>, key: string): Set<string> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

function toState(allowed: boolean, limit: number, used: number, ttlMs: number): WindowState {
  return { allowed, limit, remaining: Math.max(0, limit - used), resetSeconds: ttlMs / 1000 };
}

function toStatus(reply: number[]): TargetStatus {
  return { state: TARGET_STATES[reply[0]], failures: reply[1], retryInMs: reply[2] };
}
