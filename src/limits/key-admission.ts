import type { Logger } from 'pino';
import type { BudgetSpec } from '../config/types.ts';
import type { GatewayError } from '../errors.ts';
import { BUDGET_HEADER, formatUsd, getBudgetPeriod, toNano } from './budget-period.ts';
import type { Admission, UsageBound } from './admission.ts';
import { assignRateHeaders, getRateHeaders } from './rate-headers.ts';
import type { LocalLimitStore, LocalReservation, LocalReserveResult } from './local-store.ts';
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
  /** A new unique name for a slot or reservation in a store behind a network (a local store needs none). */
  newSlot(): string;
  /** Reserves in the store (undefined: admitted unchecked, fail-open; a 503 when fail-closed). */
  reserve(request: ReserveRequest): Promise<ReserveResult | undefined>;
  /** The 429 of a refused reservation. */
  reject(result: ReserveResult, budget: BudgetRequest | undefined, headers: Record<string, string>): GatewayError;
  /** The 429 of a refused check (a full concurrency limit). */
  refuse(result: AdmitResult, headers: Record<string, string>): GatewayError;
}

/** A taken reservation, settled by {@link KeyAdmission.charge}: named by its entry, or by its local store's handle. */
interface Held {
  entry?: string;
  reservation?: LocalReservation;
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
  /** The slot's name in a store behind a network (a local store counts slots: no name). */
  private slot?: string;
  /** Whether a slot is taken and not yet freed: freed once, by {@link release}. */
  private holdsSlot = false;
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

  copyHeaders(target: Record<string, string>): void {
    // Until a reservation is made the headers are those getRateHeaders made (accept changes them).
    if (this.reservation === 0) assignRateHeaders(target, this.headers);
    else Object.assign(target, this.headers);
  }

  reserve(bound: UsageBound): void | Promise<void> {
    const { tpm, budget } = this.limits;
    if ((tpm === 0 && !budget) || this.reservation !== 0) return undefined;
    this.reservation = 1;
    const period = budget ? getBudgetPeriod(budget, Date.now()) : undefined;
    const tokens = tpm > 0 && bound.tokens > 0 ? Math.ceil(bound.tokens) : 0;
    const nano = budget ? Math.min(toNano(bound.costUsd), toNano(budget.reserveUsd ?? Number.POSITIVE_INFINITY)) : 0;
    const { local } = this.slots;
    if (local) {
      this.reservation = 2;
      try {
        this.accept(local.reserve({ id: this.id, tpm, tokens, windowMs: this.slots.windowMs, budget: period, costNano: nano }), undefined, tokens, nano, period);
        return undefined;
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const entry = this.slots.newSlot();
    const request = { id: this.id, entry, tpm, tokens, windowMs: this.slots.windowMs, budget: period, costNano: nano };
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

  /** Holds a taken reservation (named by `entry`, or by the local result's handle) and sets the headers of its result; throws the 429 of a refused one. */
  private accept(result: LocalReserveResult | ReserveResult | undefined, entry: string | undefined, tokens: number, nano: number, period: BudgetRequest | undefined): void {
    if (result?.verdict === 'ok') this.held = { entry, reservation: (result as LocalReserveResult).reservation, tokens, nano, budget: period };
    if (!result) return;
    // The token headers stay those of the check before the body, unless the reservation is refused.
    if (result.tokens && result.verdict === 'tpm') Object.assign(this.headers, getRateHeaders({ verdict: 'tpm', tokens: result.tokens }));
    if (period && result.spentNano !== undefined) {
      this.headers[BUDGET_HEADER] = formatUsd(period.limitNano - result.spentNano);
    }
    if (result.verdict !== 'ok') throw this.slots.reject(result, period, this.headers);
  }

  acquire(): void | Promise<void> {
    if (this.limits.concurrency === 0 || this.released || this.holdsSlot) return undefined;
    const { local } = this.slots;
    if (local) {
      const refused = local.takeSlot(this.id, this.limits.concurrency);
      if (refused) return Promise.reject(this.slots.refuse(refused, this.headers));
      this.holdsSlot = true;
      return undefined;
    }
    const slot = this.slots.newSlot();
    return this.slots.take(this.id, this.limits.concurrency, slot, this.headers).then((taken) => {
      if (!taken) return;
      this.slot = slot;
      this.holdsSlot = true;
      // The request ended (the client left) while the slot was being taken: give it back at once.
      if (this.released) this.freeSlot();
    });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.holdsSlot) this.freeSlot();
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
    const { id, slots } = this;
    const { tpm } = this.limits;
    const costNano = held.budget ? toNano(costUsd) : 0;
    const { windowMs, local } = slots;
    if (local) {
      local.settle({ id, reservation: held.reservation, tpm, reservedTokens: held.tokens, tokens, windowMs, budget: held.budget, reservedNano: held.nano, costNano });
      return;
    }
    const settle = { id, entry: held.entry!, tpm, reservedTokens: held.tokens, tokens, windowMs, budget: held.budget, reservedNano: held.nano, costNano };
    slots.store.settle(settle).catch((error) => this.log.debug({ err: error }, 'token charge failed'));
  }

  private freeSlot(): void {
    this.holdsSlot = false;
    if (this.slots.local) this.slots.local.freeSlot(this.id);
    else this.slots.store.release(this.id, this.slot!).catch((error) => this.log.debug({ err: error }, 'slot release failed'));
  }
}
