import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyEntry, LimitSpec } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getLimitsLogger } from './log.ts';
import { formatDuration, getRateHeaders } from './rate-headers.ts';
import { StoreUnavailableError } from './store.ts';
import type { AdmitRequest, AdmitResult, LimitStore } from './store.ts';

/** An admitted request: its headers, its concurrency slot and its token account. */
export interface Admission {
  /** The gateway's `x-ratelimit-*` headers for the response (empty when the key has no limits). */
  readonly headers: Record<string, string>;
  /** Whether {@link charge} counts: false when the key has no token limit (then usage need not be read). */
  readonly countsTokens: boolean;
  /**
   * Takes the key's concurrency slot, once the request's body is in (a slow body never pins a slot), or
   * throws a 429 GatewayError when the key is at its concurrency limit. Returns undefined (no promise)
   * when the key has no concurrency limit; after {@link release} it takes nothing.
   */
  acquire(): void | Promise<void>;
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

interface KeyLimits {
  rpm: number;
  tpm: number;
  concurrency: number;
  any: boolean;
}

const NO_LIMITS: Admission = Object.freeze({
  headers: Object.freeze({}) as Record<string, string>,
  countsTokens: false,
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
      limits = { rpm, tpm, concurrency, any: rpm > 0 || tpm > 0 || concurrency > 0 };
      resolved.set(key, limits);
    }
    return limits;
  }

  /** Asks the store, applying the fail-open/closed policy: undefined means admitted unchecked. */
  async function ask(request: AdmitRequest): Promise<AdmitResult | undefined> {
    try {
      return await store.admit(request);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      if (store.failOpen) return undefined;
      throw new GatewayError(503, 'rate_limit_unavailable', 'Rate limits cannot be checked right now; try again shortly.', {
        retryAfter: 1,
        cause: error,
      });
    }
  }

  async function admitLimited(key: KeyEntry, limits: KeyLimits): Promise<Admission> {
    const { rpm, tpm, concurrency } = limits;
    const result = await ask({ id: key.name, rpm, tpm, concurrency, windowMs });
    // Fail-open: admitted unchecked and without headers; tokens are still charged if the store is back by then.
    const headers = result ? getRateHeaders(result) : {};
    if (result && result.verdict !== 'ok') throw createRejection(result, headers, windowLabel);
    return new KeyAdmission(log, key.name, concurrency, tpm > 0, windowMs, headers, {
      store,
      take: (slot) => acquireSlot(key.name, concurrency, slot, headers),
      newSlot: () => slotPrefix + (++slotCounter).toString(36),
    });
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
      return limits.any ? admitLimited(key, limits) : NO_LIMITS;
    },
  };
}

/** What a {@link KeyAdmission} needs from its limiter to take a concurrency slot. */
interface SlotTaker {
  store: LimitStore;
  /** Takes `slot` in the store: true when taken, false when admitted unchecked; throws a 429 when full. */
  take(slot: string): Promise<boolean>;
  newSlot(): string;
}

class KeyAdmission implements Admission {
  readonly headers: Record<string, string>;
  readonly countsTokens: boolean;
  private readonly log: Logger;
  private readonly id: string;
  private readonly concurrency: number;
  private readonly windowMs: number;
  private readonly slots: SlotTaker;
  private slot?: string;
  private released = false;

  constructor(
    log: Logger,
    id: string,
    concurrency: number,
    countsTokens: boolean,
    windowMs: number,
    headers: Record<string, string>,
    slots: SlotTaker,
  ) {
    this.log = log;
    this.id = id;
    this.concurrency = concurrency;
    this.countsTokens = countsTokens;
    this.windowMs = windowMs;
    this.headers = headers;
    this.slots = slots;
  }

  acquire(): void | Promise<void> {
    if (this.concurrency === 0 || this.released || this.slot !== undefined) return undefined;
    const slot = this.slots.newSlot();
    return this.slots.take(slot).then((taken) => {
      if (!taken) return;
      this.slot = slot;
      // The request ended (the client left) while the slot was being taken: give it back at once.
      if (this.released) this.freeSlot(slot);
    });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.slot !== undefined) this.freeSlot(this.slot);
  }

  charge(tokens: number): void {
    if (!this.countsTokens || !(tokens > 0)) return;
    this.slots.store.charge(this.id, tokens, this.windowMs).catch((error) => this.log.debug({ err: error }, 'token charge failed'));
  }

  private freeSlot(slot: string): void {
    this.slots.store.release(this.id, slot).catch((error) => this.log.debug({ err: error }, 'slot release failed'));
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
