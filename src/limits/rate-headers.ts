import type { AdmitResult, WindowState } from './store.ts';

/**
 * The gateway's own rate-limit headers, named as OpenAI names them: `x-ratelimit-{limit,remaining,reset}-
 * {requests,tokens}`, the reset as a duration (`1m0s`, `6.5s`, `20ms`). Only limits the key has are sent.
 */
export function getRateHeaders(result: AdmitResult): Record<string, string> {
  const headers: Record<string, string> = {};
  if (result.requests) addWindow(headers, 'requests', result.requests);
  if (result.tokens) addWindow(headers, 'tokens', result.tokens);
  return headers;
}

const NAMES = {
  requests: ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'],
  tokens: ['x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
} as const;

/**
 * The texts of recent limits and reset durations, which repeat request after request (a key's limits; the
 * reset of a window the request was just counted in is the whole window): made once, not per request.
 * Bounded: emptied when full.
 */
const MAX_TEXTS = 512;
const limitTexts = new Map<number, string>();
const resetTexts = new Map<number, string>();

function readText(texts: Map<number, string>, value: number, format: (value: number) => string): string {
  let text = texts.get(value);
  if (text === undefined) {
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(value, (text = format(value)));
  }
  return text;
}

function addWindow(headers: Record<string, string>, unit: keyof typeof NAMES, state: WindowState): void {
  const [limit, remaining, reset] = NAMES[unit];
  headers[limit] = readText(limitTexts, state.limit, String);
  headers[remaining] = String(state.remaining);
  // Whole milliseconds, as formatDuration rounds them.
  headers[reset] = readText(resetTexts, Math.max(0, Math.round(state.resetSeconds * 1000)), formatDuration);
}

/** A duration in the style of Go's `time.Duration` (which OpenAI uses): `20ms`, `1.5s`, `2m0s`, `1h0m0s`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = `${(total % 60_000) / 1000}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${minutes}m${seconds}`;
  return seconds;
}
