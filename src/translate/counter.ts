/**
 * The two sides of token counting in the canonical shape: how a client style asks for a count and reads the
 * answer, and how a vendor protocol counts exactly. The count-tokens handler (runtime/translation) joins
 * one of each.
 */
import type { ClientAdapter, VendorAdapter } from './adapter.ts';
import { isRecord, readNumber } from './helpers.ts';

/** How a vendor protocol counts: the request it takes and where its answer holds the count. */
export interface VendorCounter {
  vendor: VendorAdapter;
  /** The counting call for a request encoded by `vendor` (its generation body), or undefined. */
  toCountCall(upstream: string, body: Record<string, unknown>): { path: string; body: Record<string, unknown> };
  readCount(answer: unknown): number | undefined;
}

/** How a client style asks for a count and reads the answer. */
export interface ClientCounter {
  client: ClientAdapter;
  /** The chat request inside the count request (generate-content may wrap it). */
  unwrap(body: unknown): unknown;
  writeCount(tokens: number): unknown;
}

/** Keeps the fields of `body` named in `keep`. */
export function pickFields(body: Record<string, unknown>, keep: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keep) if (body[key] !== undefined) out[key] = body[key];
  return out;
}

/** The count of `answer[field]` when it is a number. */
export function readCountField(answer: unknown, field: string): number | undefined {
  return isRecord(answer) ? readNumber(answer[field]) : undefined;
}
