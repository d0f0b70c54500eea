import { createBudgetLedger, type BudgetLedger } from './budget-ledger.ts';
import { defineLocalStore, type LocalLimitStore, type LocalReservation, type LocalReserveRequest, type LocalReserveResult } from './local-store.ts';
import { TARGET_STALE_MS } from './store.ts';
import type { AdmitRequest, AdmitResult, LimitStore, ReserveResult, SettleRequest, TargetStatus, WindowState } from './store.ts';
import { addEntry, readLog, toLogState, type TokenLog } from './token-log.ts';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Clock in epoch milliseconds (tests inject their own). */
  now?: () => number;
  /** The file budgets are kept in across restarts (absent: budgets live in memory only). */
  budgetFile?: string;
}

interface TargetRecord {
  failures: number;
  /** Cooldown end (0: none). */
  until: number;
  /** End of the current probe lease (0: none). */
  probeUntil: number;
  /** The record is forgotten after this (a failure streak this old no longer counts). */
  staleAt: number;
}

/** A key's concurrency slots: named ({@link LimitStore.admit}), and counted ({@link LocalLimitStore.takeSlot}: no string per request). */
interface Slots {
  named: Set<string>;
  counted: number;
}

/** The unsettled reservations of one key window taken by entry name ({@link LimitStore.reserve}): entry -> the run it is counted in. */
interface Reservations {
  runs: Map<string, number>;
  /** How many there may be before those whose run has left the window are swept. */
  sweepAt: number;
}

const READY: TargetStatus = { state: 'ready', failures: 0, retryInMs: 0 };

/**
 * The default store: plain maps in this process, no setup, microseconds per request. Limits are per
 * process; several processes or machines need the Redis store to share one limit.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): LimitStore {
  const now = options.now ?? Date.now;
  const requests = new Map<string, TokenLog>();
  const tokens = new Map<string, TokenLog>();
  /** The run each unsettled token reservation named by an entry is counted in, per key window (dropped with it). */
  const reservations = new WeakMap<TokenLog, Reservations>();
  const budgets: BudgetLedger = createBudgetLedger(options.budgetFile);
  const slots = new Map<string, Slots>();
  const targets = new Map<string, TargetRecord>();

  function admitNow(request: AdmitRequest): AdmitResult {
    const time = now();
    const { rpm = 0, tpm = 0, concurrency = 0 } = request;
    const requestWindow = rpm > 0 ? readLog(requests, request.id, time) : undefined;
    const tokenWindow = tpm > 0 ? readLog(tokens, request.id, time) : undefined;
    const held = concurrency > 0 ? getSlots(slots, request.id) : undefined;

    let verdict: AdmitResult['verdict'] = 'ok';
    if (requestWindow && requestWindow.used >= rpm) verdict = 'rpm';
    else if (tokenWindow && tokenWindow.used >= tpm) verdict = 'tpm';
    else if (held && held.named.size + held.counted >= concurrency) verdict = 'concurrency';

    let requestState: WindowState | undefined;
    if (rpm > 0) {
      let window = requestWindow;
      if (verdict === 'ok') {
        addEntry(requests, request.id, 1, time + request.windowMs);
        window = requests.get(request.id);
      }
      requestState = toLogState(verdict === 'ok', rpm, window, time);
    }
    if (held && verdict === 'ok' && request.slot) held.named.add(request.slot);
    return {
      verdict,
      requests: requestState,
      tokens: tpm > 0 ? toLogState(verdict !== 'tpm', tpm, tokenWindow, time) : undefined,
      concurrency: held ? { limit: concurrency, inUse: held.named.size + held.counted } : undefined,
    };
  }

  /** Admits one more request of `id` unless `concurrency` are in use (the local form of a check with a slot). */
  function takeSlot(id: string, concurrency: number): AdmitResult | undefined {
    const held = getSlots(slots, id);
    const inUse = held.named.size + held.counted;
    if (inUse >= concurrency) return { verdict: 'concurrency', concurrency: { limit: concurrency, inUse } };
    held.counted++;
    return undefined;
  }

  function freeSlot(id: string): void {
    const held = slots.get(id);
    if (held && held.counted > 0) held.counted--;
  }

  /**
   * Reserves; a token reservation taken is remembered under `entry` (the promise API) or, without one,
   * answered as the result's handle (the limiter in this process keeps it until it settles).
   */
  function reserveNow(request: LocalReserveRequest, entry: string | undefined): LocalReserveResult {
    const time = now();
    const { tpm, budget } = request;
    const log = tpm > 0 ? readLog(tokens, request.id, time) : undefined;
    const spent = budget ? budgets.read(request.id, budget) : 0;
    let verdict: ReserveResult['verdict'] = 'ok';
    if (log && log.used >= tpm) verdict = 'tpm';
    else if (budget && (spent >= budget.limitNano || spent + request.costNano > budget.limitNano)) verdict = 'budget';
    let window = log;
    let reservation: LocalReservation | undefined;
    if (verdict === 'ok' && tpm > 0 && request.tokens > 0) {
      const run = addEntry(tokens, request.id, Math.round(request.tokens), time + request.windowMs);
      window = tokens.get(request.id)!;
      if (entry !== undefined) holdReservation(window, entry, run);
      else reservation = { window, run };
    }
    const result: LocalReserveResult = { verdict };
    if (reservation) result.reservation = reservation;
    if (tpm > 0) result.tokens = toLogState(verdict !== 'tpm', tpm, window, time);
    if (budget) result.spentNano = verdict === 'ok' ? budgets.add(request.id, budget, request.costNano) : spent;
    return result;
  }

  /**
   * Remembers which run a reservation is in. Settling forgets it; reservations never settled (their
   * request never ended) are swept once they pile up, those whose run has left the window first.
   */
  function holdReservation(log: TokenLog, entry: string, run: number): void {
    let held = reservations.get(log);
    if (!held) reservations.set(log, (held = { runs: new Map(), sweepAt: SWEEP_RESERVATIONS }));
    if (held.runs.size >= held.sweepAt) {
      for (const [name, at] of held.runs) if (!log.holds(at)) held.runs.delete(name);
      held.sweepAt = Math.max(SWEEP_RESERVATIONS, 2 * held.runs.size);
    }
    held.runs.set(entry, run);
  }

  /** The run of the reservation named `entry` in `log`, forgotten as it is settled (undefined: none). */
  function takeReservation(log: TokenLog, entry: string): number | undefined {
    const held = reservations.get(log)?.runs;
    const run = held?.get(entry);
    if (run !== undefined) held!.delete(entry);
    return run;
  }

  /**
   * Replaces a reservation, named by `entry` (the promise API) or by its handle, by the real count while it
   * is still in its window; once it has left, only the excess over the reservation is charged, from now.
   */
  function settleNow(request: Omit<SettleRequest, 'entry'>, entry: string | undefined, reservation: LocalReservation | undefined): void {
    if (request.tpm > 0) {
      const time = now();
      const tokensUsed = Math.round(request.tokens);
      const log = readLog(tokens, request.id, time);
      let run: number | undefined;
      if (log && entry !== undefined) run = takeReservation(log, entry);
      // A window emptied and made again is another object: the reservation's run has left with the old one.
      else if (log && reservation?.window === log) run = reservation.run;
      if (run === undefined || !log!.replace(run, request.reservedTokens, tokensUsed)) {
        if (tokensUsed > request.reservedTokens) addEntry(tokens, request.id, tokensUsed - request.reservedTokens, time + request.windowMs);
      }
    }
    if (request.budget) budgets.add(request.id, request.budget, request.costNano - request.reservedNano);
  }

  function chargeNow(id: string, amount: number, windowMs: number): void {
    if (amount > 0) addEntry(tokens, id, Math.round(amount), now() + windowMs);
  }

  function releaseNow(id: string, slot: string): void {
    slots.get(id)?.named.delete(slot);
  }

  function checkTargetNow(id: string, leaseMs: number): TargetStatus {
    const time = now();
    const record = readTarget(targets, id, time);
    if (!record) return READY;
    if (record.until === 0) return { state: 'ready', failures: record.failures, retryInMs: 0 };
    if (time < record.until) return { state: 'cooling', failures: record.failures, retryInMs: record.until - time };
    if (time < record.probeUntil) {
      return { state: 'cooling', failures: record.failures, retryInMs: record.probeUntil - time };
    }
    record.probeUntil = time + leaseMs;
    record.staleAt = Math.max(record.staleAt, record.probeUntil + TARGET_STALE_MS);
    return { state: 'probe', failures: record.failures, retryInMs: 0 };
  }

  function failTargetNow(id: string, threshold: number, cooldownMs: number): TargetStatus {
    const time = now();
    let record = readTarget(targets, id, time);
    if (!record) targets.set(id, (record = { failures: 0, until: 0, probeUntil: 0, staleAt: 0 }));
    record.failures += 1;
    record.staleAt = time + cooldownMs + TARGET_STALE_MS;
    if (time < record.until) return { state: 'cooling', failures: record.failures, retryInMs: record.until - time };
    if (threshold > 0 && record.failures >= threshold) {
      record.until = time + cooldownMs;
      record.probeUntil = 0;
      return { state: 'cooling', failures: record.failures, retryInMs: cooldownMs };
    }
    return { state: 'ready', failures: record.failures, retryInMs: 0 };
  }

  const local: LocalLimitStore = {
    admit: admitNow,
    takeSlot,
    freeSlot,
    reserve: (request) => reserveNow(request, undefined),
    settle: (request) => settleNow(request, undefined, request.reservation),
    charge: chargeNow,
  };
  return defineLocalStore(local, {
    failOpen: true,
    admit: async (request) => admitNow(request),
    charge: async (id, amount, windowMs) => chargeNow(id, amount, windowMs),
    reserve: async (request) => reserveNow(request, request.entry),
    settle: async (request) => settleNow(request, request.entry, undefined),
    release: async (id, slot) => releaseNow(id, slot),
    checkTarget: async (id, leaseMs) => checkTargetNow(id, leaseMs),
    failTarget: async (id, threshold, cooldownMs) => failTargetNow(id, threshold, cooldownMs),
    async clearTarget(id) {
      targets.delete(id);
    },
    async close() {
      await budgets.close();
      requests.clear();
      tokens.clear();
      slots.clear();
      targets.clear();
    },
  });
}

/** How many unsettled reservations of a key are kept before those whose run has left are swept. */
const SWEEP_RESERVATIONS = 1024;

function readTarget(map: Map<string, TargetRecord>, id: string, time: number): TargetRecord | undefined {
  const record = map.get(id);
  if (record && record.staleAt <= time) {
    map.delete(id);
    return undefined;
  }
  return record;
}

function getSlots(map: Map<string, Slots>, id: string): Slots {
  let held = map.get(id);
  if (!held) map.set(id, (held = { named: new Set(), counted: 0 }));
  return held;
}
