import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { BudgetSpec, KeyEntry, LimitSpec } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getBudgetPeriod, KEEP_AFTER_MS, NANO_PER_USD, toNano } from './budget-period.ts';
import { getLimitsLogger } from './log.ts';
import { formatDuration, getRateHeaders } from './rate-headers.ts';
import { StoreUnavailableError } from './store.ts';
import type { AdmitRequest, AdmitResult, BudgetRequest, LimitStore, ReserveResult } from './store.ts';

/** A request's largest usage, reserved once its body is parsed. */
export interface UsageBound {
  tokens: number;
  costUsd: number;
}

/** The response header with what is left of the key's budget (USD, after this request's reservation). */
export const BUDGET_HEADER = 'x-gateway-budget-remaining-usd';

/** An admitted request: its headers, its concurrency slot and its token and spend account. */
export interface Admission {
  /** The gateway's `x-ratelimit-*` (and budget) headers for the response (empty when the key has no limits). */
  readonly headers: Record<string, string>;
  /** Whether {@link charge} counts: false when the key has neither a token limit nor a budget (then usage need not be read). */
  readonly countsTokens: boolean;
  /** Whether {@link charge} needs the request's cost: the key has a budget. */
  readonly countsSpend: boolean;
  /**
   * Reserves the request's largest usage once its body is parsed: `tokens` against the token limit and
   * `costUsd` against the budget, atomically; throws a 429 GatewayError (`rate_limit_exceeded` or
   * `budget_exceeded`) when either is spent. Adds the budget header to {@link headers}. Returns undefined
   * (no promise) when the key has neither limit; a second call reserves nothing.
   */
  reserve(bound: UsageBound): void | Promise<void>;
  /**
   * Takes the key's concurrency slot, once the request's body is in (a slow body never pins a slot), or
   * throws a 429 GatewayError when the key is at its concurrency limit. Returns undefined (no promise)
   * when the key has no concurrency limit; after {@link release} it takes nothing.
   */
  acquire(): void | Promise<void>;
  /** Frees the concurrency slot; later calls do nothing. Call it when the response ends or the client leaves. */
  release(): void;
  /**
   * Settles the request once its usage is known: `tokens` (input + output) and `costUsd` replace what
   * {@link reserve} took (without a reservation they are charged from now). Call it once per request.
   */
  charge(tokens: number, costUsd?: number): void;
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
  budget?: BudgetSpec;
  any: boolean;
}

const NO_LIMITS: Admission = Object.freeze({
  headers: Object.freeze({}) as Record<string, string>,
  countsTokens: false,
  countsSpend: false,
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

  async function admitLimited(key: KeyEntry, limits: KeyLimits): Promise<Admission> {
    const { rpm, tpm, concurrency } = limits;
    // A key with only a budget has nothing to check before its body.
    const result = rpm || tpm || concurrency ? await ask({ id: key.name, rpm, tpm, concurrency, windowMs }) : undefined;
    // Fail-open: admitted unchecked and without headers; tokens are still charged if the store is back by then.
    const headers = result ? getRateHeaders(result) : {};
    if (result && result.verdict !== 'ok') throw createRejection(result, headers, windowLabel);
    return new KeyAdmission(log, key.name, limits, windowMs, headers, {
      store,
      take: (slot) => acquireSlot(key.name, concurrency, slot, headers),
      newSlot: () => slotPrefix + (++slotCounter).toString(36),
      reserve: (request) => guard(() => store.reserve(request)),
      reject: (result, budget) => createReserveRejection(result, budget, headers, windowLabel),
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

/** What a {@link KeyAdmission} needs from its limiter to take a concurrency slot and a reservation. */
interface SlotTaker {
  store: LimitStore;
  /** Takes `slot` in the store: true when taken, false when admitted unchecked; throws a 429 when full. */
  take(slot: string): Promise<boolean>;
  newSlot(): string;
  /** Reserves in the store (undefined: admitted unchecked, fail-open; a 503 when fail-closed). */
  reserve(request: Parameters<LimitStore['reserve']>[0]): Promise<ReserveResult | undefined>;
  /** The 429 of a refused reservation. */
  reject(result: ReserveResult, budget: BudgetRequest | undefined): GatewayError;
}

/** A taken reservation, settled by {@link KeyAdmission.charge}. */
interface Held {
  entry: string;
  tokens: number;
  nano: number;
  budget?: BudgetRequest;
}

class KeyAdmission implements Admission {
  readonly headers: Record<string, string>;
  readonly countsTokens: boolean;
  readonly countsSpend: boolean;
  private readonly log: Logger;
  private readonly id: string;
  private readonly limits: KeyLimits;
  private readonly windowMs: number;
  private readonly slots: SlotTaker;
  private slot?: string;
  private released = false;
  /** 0: nothing reserved yet, 1: reservation under way, 2: done (taken, refused or unchecked). */
  private reservation = 0;
  private held?: Held;
  /** The usage {@link charge} was given while the reservation was under way. */
  private final?: [number, number];
  private settled = false;

  constructor(log: Logger, id: string, limits: KeyLimits, windowMs: number, headers: Record<string, string>, slots: SlotTaker) {
    this.log = log;
    this.id = id;
    this.limits = limits;
    this.countsTokens = limits.tpm > 0 || limits.budget !== undefined;
    this.countsSpend = limits.budget !== undefined;
    this.windowMs = windowMs;
    this.headers = headers;
    this.slots = slots;
  }

  reserve(bound: UsageBound): void | Promise<void> {
    const { tpm, budget } = this.limits;
    if ((tpm === 0 && !budget) || this.reservation !== 0) return undefined;
    this.reservation = 1;
    const period = budget ? getBudgetPeriod(budget, Date.now()) : undefined;
    const tokens = tpm > 0 && bound.tokens > 0 ? Math.ceil(bound.tokens) : 0;
    const nano = budget ? Math.min(toNano(bound.costUsd), toNano(budget.reserveUsd ?? Number.POSITIVE_INFINITY)) : 0;
    const entry = this.slots.newSlot();
    const request = { id: this.id, entry, tpm, tokens, windowMs: this.windowMs, budget: period, costNano: nano };
    const done = () => {
      this.reservation = 2;
      if (this.final) this.settle(...this.final);
    };
    return this.slots.reserve(request).then((result) => {
      if (result?.verdict === 'ok') this.held = { entry, tokens, nano, budget: period };
      done();
      if (!result) return;
      // The token headers stay those of the check before the body, unless the reservation is refused.
      if (result.tokens && result.verdict === 'tpm') Object.assign(this.headers, getRateHeaders({ verdict: 'tpm', tokens: result.tokens }));
      if (period && result.spentNano !== undefined) {
        this.headers[BUDGET_HEADER] = formatUsd(period.limitNano - result.spentNano);
      }
      if (result.verdict !== 'ok') throw this.slots.reject(result, period);
    }, (error: unknown) => {
      done();
      throw error;
    });
  }

  acquire(): void | Promise<void> {
    if (this.limits.concurrency === 0 || this.released || this.slot !== undefined) return undefined;
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

  charge(tokens: number, costUsd = 0): void {
    if (!this.countsTokens || this.settled) return;
    this.settled = true;
    this.settle(tokens > 0 ? tokens : 0, costUsd);
  }

  /** Settles the reservation (or charges the tokens when there is none); a reservation still being taken settles when taken. */
  private settle(tokens: number, costUsd: number): void {
    if (this.reservation === 1) {
      this.final = [tokens, costUsd];
      return;
    }
    const held = this.held;
    if (!held) {
      if (!(this.limits.tpm > 0) || !(tokens > 0)) return;
      this.slots.store.charge(this.id, tokens, this.windowMs).catch((error) => this.log.debug({ err: error }, 'token charge failed'));
      return;
    }
    this.held = undefined;
    const settle = {
      id: this.id,
      entry: held.entry,
      tpm: this.limits.tpm,
      reservedTokens: held.tokens,
      tokens,
      windowMs: this.windowMs,
      budget: held.budget,
      reservedNano: held.nano,
      costNano: held.budget ? toNano(costUsd) : 0,
    };
    this.slots.store.settle(settle).catch((error) => this.log.debug({ err: error }, 'token charge failed'));
  }

  private freeSlot(slot: string): void {
    this.slots.store.release(this.id, slot).catch((error) => this.log.debug({ err: error }, 'slot release failed'));
  }
}

/** USD with six decimals (never negative). */
function formatUsd(nano: number): string {
  return (Math.max(0, nano) / NANO_PER_USD).toFixed(6);
}

/** The 429 of a refused reservation: the token window is spent, or the budget cannot cover the request. */
function createReserveRejection(
  result: ReserveResult,
  budget: BudgetRequest | undefined,
  headers: Record<string, string>,
  windowLabel: string,
): GatewayError {
  if (result.verdict === 'tpm') return createRejection({ verdict: 'tpm', tokens: result.tokens }, headers, windowLabel);
  const seconds = Math.max(1, Math.ceil((budget!.ttlMs - KEEP_AFTER_MS) / 1000));
  const left = formatUsd(budget!.limitNano - (result.spentNano ?? 0));
  const limit = formatUsd(budget!.limitNano);
  const message = `Budget exceeded: this key has $${left} of its $${limit} budget left this period, less than this request may cost. The budget renews in ${formatDuration(seconds * 1000)}.`;
  return new GatewayError(429, 'budget_exceeded', message, { retryAfter: seconds, headers });
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
