import type { WindowState } from './store.ts';

/** One key's sliding window in memory (tokens, or requests counted 1 each): entries in the order they were made, and their sum. */
export interface TokenLog {
  used: number;
  /** Entry id -> tokens and when the entry stops counting (epoch ms). */
  entries: Map<string, { tokens: number; expiresAt: number }>;
  /**
   * Entry ids in the order they were made, from `head` on (a queue: the oldest leave first). Kept apart from
   * the map because a Map iterated from its start after many deletions walks every deleted slot until it
   * is rehashed: at thousands of requests a second in a 60 s window that cost tens of microseconds a request.
   */
  order: string[];
  head: number;
  /** Numbers the entries of charges that had no reservation. */
  seq: number;
  /** When the newest entry stops counting. */
  last: number;
}

/**
 * The sliding window of `id` with the entries older than their window dropped, or undefined when none
 * is left. Entries leave in the order they were made (every entry of a key has the same window length).
 */
export function readLog(logs: Map<string, TokenLog>, id: string, time: number): TokenLog | undefined {
  const log = logs.get(id);
  if (!log) return undefined;
  const { order, entries } = log;
  while (log.head < order.length) {
    const name = order[log.head];
    const entry = entries.get(name)!;
    if (entry.expiresAt > time) break;
    entries.delete(name);
    log.used -= entry.tokens;
    log.head++;
  }
  if (log.head > 1024 && log.head * 2 > order.length) {
    log.order = order.slice(log.head);
    log.head = 0;
  }
  if (entries.size > 0) return log;
  logs.delete(id);
  return undefined;
}

/** Adds an entry of `tokens` (named `entry`, or numbered) to the window of `id` and returns the window. */
export function addEntry(logs: Map<string, TokenLog>, id: string, entry: string | undefined, tokens: number, expiresAt: number): TokenLog {
  let log = logs.get(id);
  if (!log) logs.set(id, (log = { used: 0, entries: new Map(), order: [], head: 0, seq: 0, last: 0 }));
  const name = entry ?? `#${++log.seq}`;
  const held = log.entries.get(name);
  log.used += tokens - (held?.tokens ?? 0);
  // An entry added again keeps its place in the queue, as a Map key set again keeps its place.
  if (held === undefined) log.order.push(name);
  log.entries.set(name, { tokens, expiresAt });
  log.last = Math.max(log.last, expiresAt);
  return log;
}

/**
 * Replaces reservation `entry` by the real count while it is still in its window; once it has left,
 * only the excess over the reservation is charged, counted from now.
 */
export function settleEntry(
  logs: Map<string, TokenLog>,
  id: string,
  entry: string,
  reserved: number,
  tokens: number,
  time: number,
  windowMs: number,
): void {
  const held = readLog(logs, id, time)?.entries.get(entry);
  if (held) {
    logs.get(id)!.used += tokens - held.tokens;
    held.tokens = tokens;
  } else if (tokens > reserved) {
    addEntry(logs, id, undefined, tokens - reserved, time + windowMs);
  }
}

/**
 * A sliding window as a {@link WindowState}: `resetSeconds` is when it is back to the full limit
 * (its newest entry leaves) while it admits, and when it admits again (its oldest entry leaves) once spent.
 */
export function toLogState(allowed: boolean, limit: number, log: TokenLog | undefined, time: number): WindowState {
  if (!log) return { allowed, limit, remaining: limit, resetSeconds: 0 };
  const until = allowed ? log.last : log.entries.get(log.order[log.head])!.expiresAt;
  return { allowed, limit, remaining: Math.max(0, limit - log.used), resetSeconds: (until - time) / 1000 };
}
