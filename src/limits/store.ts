/**
 * The state behind per-key limits and target cooldowns, behind one interface with two implementations:
 * `memory-store.ts` (one process, the default) and `redis-store.ts` (shared by every process through
 * atomic Lua scripts).
 *
 * Windows are sliding logs: every admitted request, and every token reservation or charge, is an entry
 * that counts for `windowMs` from when it was made (a Redis sorted set scored by that time), so no edge
 * between two windows lets twice the limit through; at most `rpm` requests are admitted in any `windowMs`.
 * A window holds at most about `limit` entries, as entries are only added while it is under its limit.
 *
 * A request reserves its
 * largest usage once its body is parsed ({@link LimitStore.reserve}) while the tokens counted in the last
 * `windowMs` are under the limit (so the last admitted one may overshoot the limit by its own reservation)
 * and settles its real usage afterwards ({@link LimitStore.settle}): its entry takes the real count.
 *
 * Budgets are USD counters per key and UTC period, in nano-USD integers: a reservation is taken only
 * when spent + reserved stays within the budget, and settling replaces it with the real cost.
 */

/** Where a key stands in one limit window. */
export interface WindowState {
  /** Whether the window still admits (requests: this one was counted; tokens: used < limit). */
  allowed: boolean;
  limit: number;
  /** What is left of the limit after this request (never negative). */
  remaining: number;
  /**
   * Seconds (ms precision) until the window is back to the full limit (its newest entry leaves) while it
   * admits, or until it admits again (its oldest entry leaves) once spent; 0 when the window is empty.
   */
  resetSeconds: number;
}

/** One admission check: request, token and concurrency limits of one key, checked and taken atomically. */
export interface AdmitRequest {
  /** The key's identity (client key name). */
  id: string;
  /** Limits; absent or 0 means unlimited. */
  rpm?: number;
  tpm?: number;
  concurrency?: number;
  /** Length of the request and token windows. */
  windowMs: number;
  /**
   * Unique id of the concurrency slot to take when every limit passes. Without it a full concurrency
   * limit still refuses, but no slot is taken (the check before the body; the slot is taken once it is in).
   */
  slot?: string;
}

/** Which limit refused a request, or `ok`. */
export type AdmitVerdict = 'ok' | 'rpm' | 'tpm' | 'concurrency';

/** The result of {@link LimitStore.admit}: nothing is counted unless the verdict is `ok`. */
export interface AdmitResult {
  verdict: AdmitVerdict;
  /** Present when the request limit is set. */
  requests?: WindowState;
  /** Present when the token limit is set. */
  tokens?: WindowState;
  /** Present when the concurrency limit is set; `inUse` includes this request when admitted. */
  concurrency?: { limit: number; inUse: number };
}

/** A budget of one key in one period, as the store counts it (integers of nano-USD). */
export interface BudgetRequest {
  /** The period's name, e.g. `d2026-11-24` or `m2026-11`. */
  period: string;
  limitNano: number;
  /** How long the period's counter must be kept (until the period is over). */
  ttlMs: number;
}

/** One reservation taken once the body is parsed: tokens (tpm) and maximum cost (budget), atomically. */
export interface ReserveRequest {
  id: string;
  /** Unique id of this reservation, by which it is settled. */
  entry: string;
  /** Token limit; 0 means none (nothing is reserved against it). */
  tpm: number;
  tokens: number;
  windowMs: number;
  budget?: BudgetRequest;
  costNano: number;
}

/** Which limit refused a reservation, or `ok`. */
export type ReserveVerdict = 'ok' | 'tpm' | 'budget';

/** The result of {@link LimitStore.reserve}: nothing is taken unless the verdict is `ok`. */
export interface ReserveResult {
  verdict: ReserveVerdict;
  /** Present when the token limit is set. */
  tokens?: WindowState;
  /** Present with a budget: nano-USD spent and reserved in the period (this reservation included when taken). */
  spentNano?: number;
}

/** Replaces a reservation by what the request really used (once; an unknown entry charges the excess). */
export interface SettleRequest {
  id: string;
  entry: string;
  /** Whether the key has a token limit (then `tokens` replaces `reservedTokens` in the window). */
  tpm: number;
  reservedTokens: number;
  tokens: number;
  windowMs: number;
  budget?: BudgetRequest;
  reservedNano: number;
  costNano: number;
}

/** A target's health: `ready`, `cooling` (skip it) or `probe` (this caller alone may try it once). */
export interface TargetStatus {
  state: 'ready' | 'cooling' | 'probe';
  /** Consecutive failures recorded so far. */
  failures: number;
  /** When cooling: milliseconds until a probe may be tried. */
  retryInMs: number;
}

/** The shared state of limits and cooldowns. Every method may throw {@link StoreUnavailableError}. */
export interface LimitStore {
  /** What the gateway does while the store is unreachable: admit (true) or answer 503 (false). */
  readonly failOpen: boolean;
  /** Checks every limit of a key and, only when all pass, counts the request (rpm) and takes the slot if one is named. */
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /** Adds tokens used by a request that reserved none to the key's token window, counted from now. */
  charge(id: string, tokens: number, windowMs: number): Promise<void>;
  /** Reserves a request's tokens and maximum cost when every limit passes (see {@link ReserveRequest}). */
  reserve(request: ReserveRequest): Promise<ReserveResult>;
  /** Settles a reservation with the real usage: the token entry (if still in its window) and the budget. */
  settle(request: SettleRequest): Promise<void>;
  /** Frees a concurrency slot; releasing an unknown or already released slot does nothing. */
  release(id: string, slot: string): Promise<void>;
  /** A target's status; when its cooldown is over, grants one caller a probe lease of `leaseMs`. */
  checkTarget(id: string, leaseMs: number): Promise<TargetStatus>;
  /** Records a failure; the `threshold`-th in a row starts a cooldown of `cooldownMs`. */
  failTarget(id: string, threshold: number, cooldownMs: number): Promise<TargetStatus>;
  /** Records a success: the failure count and any cooldown are cleared. */
  clearTarget(id: string): Promise<void>;
  /** Stops timers and closes connections. */
  close(): Promise<void>;
  /** Counts of a store behind a network (Redis), read by the metrics; absent for the memory store. */
  readonly stats?: StoreStats;
  /** Plain values with a lifetime on the same backend (a shared store offers it; memory leaves it out). */
  readonly values?: ValueStore;
}

/** What a networked store has done so far: commands, failed ones, their total time, and whether it is up. */
export interface StoreStats {
  commands: number;
  errors: number;
  /** Sum of every command's round trip, in seconds. */
  seconds: number;
  reachable: boolean;
}

/** Text values under string keys, each with a lifetime; every method may throw {@link StoreUnavailableError}. */
export interface ValueStore {
  /** The value, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets every entry, each expiring after `ttlMs`. */
  set(entries: ReadonlyArray<readonly [string, string]>, ttlMs: number): Promise<void>;
  /** Removes the keys (absent ones are ignored). */
  delete(keys: readonly string[]): Promise<void>;
  /** Sets `key` to `value` (expiring after `ttlMs`) unless it holds a value; answers the value it holds then. */
  keep(key: string, value: string, ttlMs: number): Promise<string>;
}

/**
 * How long a target's failure record outlives its last failure (or probe lease): failures further
 * apart than this are not "in a row". Both stores use it.
 */
export const TARGET_STALE_MS = 600_000;

/** Thrown by a store that cannot reach its backend; the caller applies the fail-open/closed policy. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The limit store is unreachable.', { cause });
    this.name = 'StoreUnavailableError';
  }
}
