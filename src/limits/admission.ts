/**
 * What the limiter hands each admitted request (its headers, slot and token and spend account), apart from
 * the limiter so that the key's admission can implement it without importing the limiter back.
 */

/** A request's largest usage, reserved once its body is parsed. */
export interface UsageBound {
  tokens: number;
  costUsd: number;
}

/** An admitted request: its headers, its concurrency slot and its token and spend account. */
export interface Admission {
  /** The gateway's `x-ratelimit-*` (and budget) headers for the response (empty when the key has no limits). */
  readonly headers: Record<string, string>;
  /** Copies {@link headers} onto `target` as `Object.assign(target, headers)` does (same names, values and order). */
  copyHeaders(target: Record<string, string>): void;
  /** Whether {@link charge} counts: false when the key has neither a token limit nor a budget (then usage need not be read). */
  readonly countsTokens: boolean;
  /** Whether {@link charge} needs the request's cost: the key has a budget. */
  readonly countsSpend: boolean;
  /**
   * Reserves the request's largest usage once its body is parsed: `tokens` against the token limit and
   * `costUsd` against the budget, atomically; throws a 429 GatewayError (`rate_limit_exceeded` or
   * `budget_exceeded`) when either is spent. Adds the budget header to {@link headers}, which it changes
   * in no other way unless it throws (a key without a budget keeps the headers it was admitted with). Returns undefined
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
