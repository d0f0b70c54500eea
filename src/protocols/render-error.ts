import type { Style } from '../config/types.ts';
import type { GatewayError } from '../errors.ts';
import { getStyleFacts } from './styles.ts';

/** The JSON error body of `error` in the caller's style (the style's own writer, `src/protocols/<style>/error-body.ts`). */
export function renderErrorBody(style: Style, error: GatewayError, requestId: string): object {
  return getStyleFacts(style).writeErrorBody(error, requestId);
}

/** Status, headers and serialized body of an error response in the caller's style. */
export function renderError(style: Style, error: GatewayError, requestId: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...error.headers };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfter)));
  return { status: error.status, headers, body: JSON.stringify(renderErrorBody(style, error, requestId)) };
}

/**
 * The SSE text that ends an already-started stream with an error, in the caller's style (the style's own
 * frame: Anthropic's `event: error`, an OpenAI/Google `data:` error object).
 */
export function renderStreamError(style: Style, error: GatewayError, requestId: string): string {
  return getStyleFacts(style).writeStreamErrorFrame(JSON.stringify(renderErrorBody(style, error, requestId)));
}
