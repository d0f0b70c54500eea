import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyEntry, LimitSpec } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { KeyAdmission, type KeyLimits, type SlotTaker } from './key-admission.ts';
import { getLocalStore, type LocalLimitStore } from './local-store.ts';
import { createRejection, createReserveRejection } from './rejections.ts';
import { getLimitsLogger } from './log.ts';
import { getRateHeaders } from './rate-headers.ts';
import type { Admission, UsageBound } from './admission.ts';
import { StoreUnavailableError } from './store.ts';
import type { AdmitRequest, AdmitResult, LimitStore } from './store.ts';

export type { Admission, UsageBound } from './admission.ts';
export { BUDGET_HEADER } from './budget-period.ts';

/** Per-key request, token and concurrency limits over a {@link LimitStore}. */
export interface Limiter {
  /**
   * Admits one client request of `key` before its body is read (retries and fallbacks of it count once):
   * counts it in the request window, or throws a 429 GatewayError carrying `retryAfter` and the rate
   * headers when the request or token window is spent or the concurrency limit is full; while the store is
   * unreachable it admits (fail-open) or throws a 503 (fail-closed). A key without limits is admitted
   * synchronously. The concurrency slot is taken later, by {@link Admission.acquire}.
   */
  admit(key: KeyEntry): Admission | Promise<Admission>;
}

/** Options of {@link createLimiter}. */
export interface LimiterOptions {
  /** Length of the request and token windows (default one minute; tests use less). */
  windowMs?: number;
  log?: Logger;
}


const NO_LIMITS: Admission = Object.freeze({
  headers: Object.freeze({}) as Record<string, string>,
  countsTokens: false,
  countsSpend: false,
  copyHeaders() {},
  reserve() {},
  acquire() {},
  release() {},
  charge() {},
});

/**
 * Creates the limiter: limits of a key come from `KeyEntry.limits`, each one absent there falls back to
 * `defaults` (`ServerSettings.defaultLimits`); absent or 0 everywhere means unlimited.
 */
export function createLimiter(store: LimitStore, defaults: LimitSpec, options: LimiterOptions = {}): Limiter {
  const windowMs = options.windowMs ?? 60_000;
  const windowLabel = windowMs === 60_000 ? 'per minute' : `per ${windowMs / 1000} s`;
  const log = getLimitsLogger(options.log);
  const resolved = new WeakMap<KeyEntry, KeyLimits>();
  const slotPrefix = `${randomBytes(6).toString('hex')}:`;
  let slotCounter = 0;

  function limitsOf(key: KeyEntry): KeyLimits {
    let limits = resolved.get(key);
    if (!limits) {
      const rpm = key.limits.rpm ?? defaults.rpm ?? 0;
      const tpm = key.limits.tpm ?? defaults.tpm ?? 0;
      const concurrency = key.limits.concurrency ?? defaults.concurrency ?? 0;
      const { budget } = key;
      limits = { rpm, tpm, concurrency, budget, any: rpm > 0 || tpm > 0 || concurrency > 0 || budget !== undefined };
      resolved.set(key, limits);
    }
    return limits;
  }

  /** Asks the store, applying the fail-open/closed policy: undefined means admitted unchecked. */
  async function ask(request: AdmitRequest): Promise<AdmitResult | undefined> {
    return guard(() => store.admit(request));
  }

  async function guard<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      if (store.failOpen) return undefined;
      throw new GatewayError(503, 'rate_limit_unavailable', 'Rate limits cannot be checked right now; try again shortly.', {
        retryAfter: 1,
        cause: error,
      });
    }
  }

  /** What every admission of this limiter shares: the store, slot names and the 429s in this window's words. */
  const slots: SlotTaker = {
    store,
    local: getLocalStore(store),
    windowMs,
    take: (id, concurrency, slot, headers) => acquireSlot(id, concurrency, slot, headers),
    newSlot: () => slotPrefix + (++slotCounter).toString(36),
    reserve: (request) => guard(() => store.reserve(request)),
    reject: (result, budget, headers) => createReserveRejection(result, budget, headers, windowLabel),
    refuse: (result, headers) => createRejection(result, headers, windowLabel),
  };

  /** The admission of a checked request (result undefined: nothing to check, or admitted unchecked); throws its 429. */
  function toAdmission(key: KeyEntry, limits: KeyLimits, result: AdmitResult | undefined): Admission {
    // Fail-open: admitted unchecked and without headers; tokens are still charged if the store is back by then.
    const headers = result ? getRateHeaders(result) : {};
    if (result && result.verdict !== 'ok') throw createRejection(result, headers, windowLabel);
    return new KeyAdmission(log, key.name, limits, headers, slots);
  }

  async function admitLimited(key: KeyEntry, limits: KeyLimits): Promise<Admission> {
    const { rpm, tpm, concurrency } = limits;
    // A key with only a budget has nothing to check before its body.
    return toAdmission(key, limits, rpm || tpm || concurrency ? await ask({ id: key.name, rpm, tpm, concurrency, windowMs }) : undefined);
  }

  /** {@link admitLimited} on a store in this process: no promise unless refused. */
  function admitLocal(local: LocalLimitStore, key: KeyEntry, limits: KeyLimits): Admission | Promise<Admission> {
    const { rpm, tpm, concurrency } = limits;
    try {
      return toAdmission(key, limits, rpm || tpm || concurrency ? local.admit({ id: key.name, rpm, tpm, concurrency, windowMs }) : undefined);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Takes a slot: true when taken, false when the store was unreachable (fail-open); 429 when full. */
  async function acquireSlot(id: string, concurrency: number, slot: string, headers: Record<string, string>): Promise<boolean> {
    const result = await ask({ id, concurrency, windowMs, slot });
    if (!result) return false;
    if (result.verdict !== 'ok') throw createRejection(result, headers, windowLabel);
    return true;
  }

  return {
    admit(key) {
      const limits = limitsOf(key);
      if (!limits.any) return NO_LIMITS;
      return slots.local ? admitLocal(slots.local, key, limits) : admitLimited(key, limits);
    },
  };
}
