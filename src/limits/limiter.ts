import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyEntry, LimitSpec } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getLimitsLogger } from './log.ts';
import { formatDuration, getRateHeaders } from './rate-headers.ts';
import { StoreUnavailableError } from './store.ts';
import type { AdmitResult, LimitStore } from './store.ts';

/** An admitted request: its headers, its concurrency slot and its token account. */
export interface Admission {
  /** The gateway's `x-ratelimit-*` headers for the response (empty when the key has no limits). */
  readonly headers: Record<string, string>;
  /** Whether {@link charge} counts: false when the key has no token limit (then usage need not be read). */
  readonly countsTokens: boolean;
  /** Frees the concurrency slot; later calls do nothing. Call it when the response ends or the client leaves. */
  release(): void;
  /**
   * Charges tokens (input + output from the vendor's usage) to the key's token window. Tokens are charged
   * after the response, never estimated up front; call it once per vendor call that reported usage.
   */
  charge(tokens: number): void;
}

/** Per-key request, token and concurrency limits over a {@link LimitStore}. */
export interface Limiter {
  /**
   * Admits one client request of `key` (retries and fallbacks of it count once) or throws a 429
   * GatewayError carrying `retryAfter` and the rate headers; while the store is unreachable it admits
   * (fail-open) or throws a 503 (fail-closed). A key without limits is admitted synchronously.
   */
  admit(key: KeyEntry): Admission | Promise<Admission>;
}

/** Options of {@link createLimiter}. */
export interface LimiterOptions {
  /** Length of the request and token windows (default one minute; tests use less). */
  windowMs?: number;
  log?: Logger;
}

interface KeyLimits {
  rpm: number;
  tpm: number;
  concurrency: number;
  any: boolean;
}

const NO_LIMITS: Admission = Object.freeze({ headers: Object.freeze({}) as Record<string, string>, countsTokens: false, release() {}, charge() {} });

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
      limits = { rpm, tpm, concurrency, any: rpm > 0 || tpm > 0 || concurrency > 0 };
      resolved.set(key, limits);
    }
    return limits;
  }

  async function admitLimited(key: KeyEntry, limits: KeyLimits): Promise<Admission> {
    const slot = slotPrefix + (++slotCounter).toString(36);
    const { rpm, tpm, concurrency } = limits;
    let result: AdmitResult;
    try {
      result = await store.admit({ id: key.name, rpm, tpm, concurrency, windowMs, slot });
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // Fail-open: admitted unchecked and without headers; tokens are still charged if the store is back by then.
      if (store.failOpen) return new KeyAdmission(store, log, key.name, slot, false, tpm > 0, windowMs, {});
      throw new GatewayError(503, 'rate_limit_unavailable', 'Rate limits cannot be checked right now; try again shortly.', {
        retryAfter: 1,
        cause: error,
      });
    }
    const headers = getRateHeaders(result);
    if (result.verdict !== 'ok') throw createRejection(result, headers, windowLabel);
    return new KeyAdmission(store, log, key.name, slot, concurrency > 0, tpm > 0, windowMs, headers);
  }

  return {
    admit(key) {
      const limits = limitsOf(key);
      return limits.any ? admitLimited(key, limits) : NO_LIMITS;
    },
  };
}

class KeyAdmission implements Admission {
  readonly headers: Record<string, string>;
  private readonly store: LimitStore;
  private readonly log: Logger;
  private readonly id: string;
  private readonly slot: string;
  private holding: boolean;
  readonly countsTokens: boolean;
  private readonly windowMs: number;

  constructor(
    store: LimitStore,
    log: Logger,
    id: string,
    slot: string,
    holding: boolean,
    countsTokens: boolean,
    windowMs: number,
    headers: Record<string, string>,
  ) {
    this.store = store;
    this.log = log;
    this.id = id;
    this.slot = slot;
    this.holding = holding;
    this.countsTokens = countsTokens;
    this.windowMs = windowMs;
    this.headers = headers;
  }

  release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.store.release(this.id, this.slot).catch((error) => this.log.debug({ err: error }, 'slot release failed'));
  }

  charge(tokens: number): void {
    if (!this.countsTokens || !(tokens > 0)) return;
    this.store.charge(this.id, tokens, this.windowMs).catch((error) => this.log.debug({ err: error }, 'token charge failed'));
  }
}

/** The 429 of a refused request, in the words of the limit that refused it. */
function createRejection(result: AdmitResult, headers: Record<string, string>, windowLabel: string): GatewayError {
  let message: string;
  let retryAfter = 1;
  const window = result.verdict === 'rpm' ? result.requests : result.verdict === 'tpm' ? result.tokens : undefined;
  if (window) {
    const unit = result.verdict === 'rpm' ? 'requests' : 'tokens';
    retryAfter = Math.max(1, Math.ceil(window.resetSeconds));
    message = `Rate limit reached for ${unit}: limit ${window.limit} ${windowLabel}. Try again in ${formatDuration(window.resetSeconds * 1000)}.`;
  } else {
    message = `Too many concurrent requests: limit ${result.concurrency?.limit}. Try again when one of them has finished.`;
  }
  return new GatewayError(429, 'rate_limit_exceeded', message, { retryAfter, headers });
}
