import type { Logger } from 'pino';
import type { BudgetSpec } from '../config/types.ts';
import type { GatewayError } from '../errors.ts';
import { BUDGET_HEADER, formatUsd, getBudgetPeriod, toNano } from './budget-period.ts';
import type { Admission, UsageBound } from './limiter.ts';
import { getRateHeaders } from './rate-headers.ts';
import type { LocalLimitStore } from './local-store.ts';
import type { AdmitResult, BudgetRequest, LimitStore, ReserveRequest, ReserveResult } from './store.ts';

/** A key's limits as the limiter resolved them (0: none). */
export interface KeyLimits {
  rpm: number;
  tpm: number;
  concurrency: number;
  budget?: BudgetSpec;
  any: boolean;
}

/** What every {@link KeyAdmission} of a limiter shares: its store, window, slot names and 429s. */
export interface SlotTaker {
  store: LimitStore;
  /** The store's immediate operations when it lives in this process (then no promise is made). */
  local?: LocalLimitStore;
  windowMs: number;
  /** Takes `slot` of key `id` in the store: true when taken, false when admitted unchecked; throws a 429 when full. */
  take(id: string, concurrency: number, slot: string, headers: Record<string, string>): Promise<boolean>;
  newSlot(): string;
  /** Reserves in the store (undefined: admitted unchecked, fail-open; a 503 when fail-closed). */
  reserve(request: ReserveRequest): Promise<ReserveResult | undefined>;
  /** The 429 of a refused reservation. */
  reject(result: ReserveResult, budget: BudgetRequest | undefined, headers: Record<string, string>): GatewayError;
  /** The 429 of a refused check (a full concurrency limit). */
  refuse(result: AdmitResult, headers: Record<string, string>): GatewayError;
}

/** A taken reservation, settled by {@link KeyAdmission.charge}. */
interface Held {
  entry: string;
  tokens: number;
  nano: number;
  budget?: BudgetRequest;
}

/** One admitted request of a key: its concurrency slot, its reservation and their settlement. */
export class KeyAdmission implements Admission {
  readonly headers: Record<string, string>;
  readonly countsTokens: boolean;
  readonly countsSpend: boolean;
  private readonly log: Logger;
  private readonly id: string;
  private readonly limits: KeyLimits;
  private readonly slots: SlotTaker;
  private slot?: string;
  private released = false;
  /** 0: nothing reserved yet, 1: reservation under way, 2: done (taken, refused or unchecked). */
  private reservation = 0;
  private held?: Held;
  /** The usage {@link charge} was given while the reservation was under way. */
  private final?: [number, number];
  private settled = false;

  constructor(log: Logger, id: string, limits: KeyLimits, headers: Record<string, string>, slots: SlotTaker) {
    this.log = log;
    this.id = id;
    this.limits = limits;
    this.countsTokens = limits.tpm > 0 || limits.budget !== undefined;
    this.countsSpend = limits.budget !== undefined;
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
    const request = { id: this.id, entry, tpm, tokens, windowMs: this.slots.windowMs, budget: period, costNano: nano };
    const { local } = this.slots;
    if (local) {
      this.reservation = 2;
      try {
        this.accept(local.reserve(request), entry, tokens, nano, period);
        return undefined;
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const done = () => {
      this.reservation = 2;
      if (this.final) this.settle(...this.final);
    };
    return this.slots.reserve(request).then((result) => {
      // A charge made meanwhile settles once the reservation is held (or refused).
      try {
        this.accept(result, entry, tokens, nano, period);
      } finally {
        done();
      }
    }, (error: unknown) => {
      done();
      throw error;
    });
  }

  /** Holds a taken reservation and sets the headers of its result; throws the 429 of a refused one. */
  private accept(result: ReserveResult | undefined, entry: string, tokens: number, nano: number, period: BudgetRequest | undefined): void {
    if (result?.verdict === 'ok') this.held = { entry, tokens, nano, budget: period };
    if (!result) return;
    // The token headers stay those of the check before the body, unless the reservation is refused.
    if (result.tokens && result.verdict === 'tpm') Object.assign(this.headers, getRateHeaders({ verdict: 'tpm', tokens: result.tokens }));
    if (period && result.spentNano !== undefined) {
      this.headers[BUDGET_HEADER] = formatUsd(period.limitNano - result.spentNano);
    }
    if (result.verdict !== 'ok') throw this.slots.reject(result, period, this.headers);
  }

  acquire(): void | Promise<void> {
    if (this.limits.concurrency === 0 || this.released || this.slot !== undefined) return undefined;
    const slot = this.slots.newSlot();
    const { local } = this.slots;
    if (local) {
      const result = local.admit({ id: this.id, concurrency: this.limits.concurrency, windowMs: this.slots.windowMs, slot });
      if (result.verdict !== 'ok') return Promise.reject(this.slots.refuse(result, this.headers));
      this.slot = slot;
      return undefined;
    }
    return this.slots.take(this.id, this.limits.concurrency, slot, this.headers).then((taken) => {
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
      const { local, store, windowMs } = this.slots;
      if (local) local.charge(this.id, tokens, windowMs);
      else store.charge(this.id, tokens, windowMs).catch((error) => this.log.debug({ err: error }, 'token charge failed'));
      return;
    }
    this.held = undefined;
    const settle = {
      id: this.id,
      entry: held.entry,
      tpm: this.limits.tpm,
      reservedTokens: held.tokens,
      tokens,
      windowMs: this.slots.windowMs,
      budget: held.budget,
      reservedNano: held.nano,
      costNano: held.budget ? toNano(costUsd) : 0,
    };
    if (this.slots.local) this.slots.local.settle(settle);
    else this.slots.store.settle(settle).catch((error) => this.log.debug({ err: error }, 'token charge failed'));
  }

  private freeSlot(slot: string): void {
    if (this.slots.local) this.slots.local.release(this.id, slot);
    else this.slots.store.release(this.id, slot).catch((error) => this.log.debug({ err: error }, 'slot release failed'));
  }
}
