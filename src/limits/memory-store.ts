import { createBudgetLedger, type BudgetLedger } from './budget-ledger.ts';
import { TARGET_STALE_MS } from './store.ts';
import type { AdmitRequest, AdmitResult, LimitStore, ReserveResult, TargetStatus, WindowState } from './store.ts';
import { addEntry, readLog, settleEntry, toLogState, type TokenLog } from './token-log.ts';

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

const READY: TargetStatus = { state: 'ready', failures: 0, retryInMs: 0 };

/**
 * The default store: plain maps in this process, no setup, microseconds per request. Limits are per
 * process; several processes or machines need the Redis store to share one limit.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): LimitStore {
  const now = options.now ?? Date.now;
  const requests = new Map<string, TokenLog>();
  const tokens = new Map<string, TokenLog>();
  const budgets: BudgetLedger = createBudgetLedger(options.budgetFile);
  const slots = new Map<string, Set<string>>();
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
    else if (held && held.size >= concurrency) verdict = 'concurrency';

    let requestState: WindowState | undefined;
    if (rpm > 0) {
      let window = requestWindow;
      if (verdict === 'ok') window = addEntry(requests, request.id, undefined, 1, time + request.windowMs);
      requestState = toLogState(verdict === 'ok', rpm, window, time);
    }
    if (held && verdict === 'ok' && request.slot) held.add(request.slot);
    return {
      verdict,
      requests: requestState,
      tokens: tpm > 0 ? toLogState(verdict !== 'tpm', tpm, tokenWindow, time) : undefined,
      concurrency: held ? { limit: concurrency, inUse: held.size } : undefined,
    };
  }

  function reserveNow(request: Parameters<LimitStore['reserve']>[0]): ReserveResult {
    const time = now();
    const { tpm, budget } = request;
    const log = tpm > 0 ? readLog(tokens, request.id, time) : undefined;
    const spent = budget ? budgets.read(request.id, budget) : 0;
    let verdict: ReserveResult['verdict'] = 'ok';
    if (log && log.used >= tpm) verdict = 'tpm';
    else if (budget && (spent >= budget.limitNano || spent + request.costNano > budget.limitNano)) verdict = 'budget';
    let window = log;
    if (verdict === 'ok' && tpm > 0 && request.tokens > 0) {
      window = addEntry(tokens, request.id, request.entry, Math.round(request.tokens), time + request.windowMs);
    }
    const result: ReserveResult = { verdict };
    if (tpm > 0) result.tokens = toLogState(verdict !== 'tpm', tpm, window, time);
    if (budget) result.spentNano = verdict === 'ok' ? budgets.add(request.id, budget, request.costNano) : spent;
    return result;
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

  return {
    failOpen: true,
    admit: async (request) => admitNow(request),
    async charge(id, amount, windowMs) {
      if (!(amount > 0)) return;
      const time = now();
      addEntry(tokens, id, undefined, Math.round(amount), time + windowMs);
    },
    reserve: async (request) => reserveNow(request),
    async settle(request) {
      if (request.tpm > 0) {
        settleEntry(tokens, request.id, request.entry, request.reservedTokens, Math.round(request.tokens), now(), request.windowMs);
      }
      if (request.budget) budgets.add(request.id, request.budget, request.costNano - request.reservedNano);
    },
    async release(id, slot) {
      slots.get(id)?.delete(slot);
    },
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
  };
}

function readTarget(map: Map<string, TargetRecord>, id: string, time: number): TargetRecord | undefined {
  const record = map.get(id);
  if (record && record.staleAt <= time) {
    map.delete(id);
    return undefined;
  }
  return record;
}

function getSlots(map: Map<string, Set<string>>, id: string): Set<string> {
  let set = map.get(id);
  if (!set) map.set(id, (set = new Set()));
  return set;
}
