import type { WindowState } from './store.ts';

/** Runs a new log has room for before it grows (doubling). */
const INITIAL_RUNS = 16;

/**
 * One key's sliding window in memory (tokens, or requests counted 1 each), exact to the millisecond: every
 * entry counts until its own end. Entries that end in the same millisecond share one run (a number of
 * tokens and an end), and the runs are kept oldest first in a ring of two typed arrays: a busy key at
 * thousands of requests a second holds no object, string or Map entry per request, so a 60 s window of
 * them gives the garbage collector nothing to trace or promote. A run is named by its sequence number
 * (counted from the log's creation), by which a reservation is settled while it is still in the window.
 */
export class TokenLog {
  /** Tokens counted in the window (the sum of the live runs). */
  used = 0;
  /** When the newest entry stops counting (epoch ms; 0 before any). */
  last = 0;
  private ends = new Float64Array(INITIAL_RUNS);
  private amounts = new Float64Array(INITIAL_RUNS);
  /** Sequence number of the oldest live run, and of the next one to be made. */
  private first = 0;
  private next = 0;

  /** How many runs are live (entries ending in one millisecond make one run). */
  get runs(): number {
    return this.next - this.first;
  }

  /** When the oldest live run stops counting (epoch ms); meaningful only while {@link runs} > 0. */
  get oldestEnd(): number {
    return this.ends[this.first % this.ends.length];
  }

  /**
   * Drops the runs whose end is `time` or earlier, oldest first, stopping at the first still live
   * (every entry of a key has the same window length, so ends come in order).
   */
  expire(time: number): void {
    const { ends, amounts } = this;
    const size = ends.length;
    while (this.first < this.next) {
      const at = this.first % size;
      if (ends[at] > time) break;
      this.used -= amounts[at];
      this.first++;
    }
  }

  /** Counts `tokens` until `end` and returns the sequence number of the run holding them. */
  add(tokens: number, end: number): number {
    this.used += tokens;
    if (end > this.last) this.last = end;
    if (this.next > this.first) {
      const newest = (this.next - 1) % this.ends.length;
      if (this.ends[newest] === end) {
        this.amounts[newest] += tokens;
        return this.next - 1;
      }
    }
    if (this.next - this.first === this.ends.length) this.grow();
    const at = this.next % this.ends.length;
    this.ends[at] = end;
    this.amounts[at] = tokens;
    return this.next++;
  }

  /**
   * Replaces `reserved` tokens of run `run` by `tokens` when the run is still in the window (after
   * {@link expire}); false when it has left (then nothing changes).
   */
  replace(run: number, reserved: number, tokens: number): boolean {
    if (!this.holds(run)) return false;
    this.amounts[run % this.amounts.length] += tokens - reserved;
    this.used += tokens - reserved;
    return true;
  }

  /** Whether run `run` is still in the window (as of the last {@link expire}). */
  holds(run: number): boolean {
    return run >= this.first && run < this.next;
  }

  /** Doubles the ring, keeping each run at its sequence number modulo the new size. */
  private grow(): void {
    const size = this.ends.length;
    const ends = new Float64Array(size * 2);
    const amounts = new Float64Array(size * 2);
    for (let seq = this.first; seq < this.next; seq++) {
      ends[seq % (size * 2)] = this.ends[seq % size];
      amounts[seq % (size * 2)] = this.amounts[seq % size];
    }
    this.ends = ends;
    this.amounts = amounts;
  }
}

/** The sliding window of `id` with the entries older than their window dropped, or undefined when none is left. */
export function readLog(logs: Map<string, TokenLog>, id: string, time: number): TokenLog | undefined {
  const log = logs.get(id);
  if (!log) return undefined;
  log.expire(time);
  if (log.runs > 0) return log;
  logs.delete(id);
  return undefined;
}

/** Adds `tokens` counting until `expiresAt` to the window of `id` (made when absent); returns the run's sequence number. */
export function addEntry(logs: Map<string, TokenLog>, id: string, tokens: number, expiresAt: number): number {
  let log = logs.get(id);
  if (!log) logs.set(id, (log = new TokenLog()));
  return log.add(tokens, expiresAt);
}

/**
 * A sliding window as a {@link WindowState}: `resetSeconds` is when it is back to the full limit
 * (its newest entry leaves) while it admits, and when it admits again (its oldest entry leaves) once spent.
 */
export function toLogState(allowed: boolean, limit: number, log: TokenLog | undefined, time: number): WindowState {
  if (!log) return { allowed, limit, remaining: limit, resetSeconds: 0 };
  const until = allowed ? log.last : log.oldestEnd;
  return { allowed, limit, remaining: Math.max(0, limit - log.used), resetSeconds: (until - time) / 1000 };
}
