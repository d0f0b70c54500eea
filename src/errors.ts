import type { Style } from './config/types.ts';
import { DEFAULT_STYLE, getStyleFacts } from './protocols/styles.ts';

/** Options of a {@link GatewayError}. */
export interface GatewayErrorOptions {
  /** The request field the error is about (OpenAI `param`). */
  param?: string;
  /** Overrides the per-style error type derived from the status. */
  type?: string;
  /** Seconds a client should wait before retrying (sets `Retry-After`). */
  retryAfter?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one error class of the gateway. Thrown anywhere in a request; turned into the caller's own
 * protocol error body by {@link renderError} (and {@link renderStreamError} once a stream has begun).
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param?: string;
  readonly type?: string;
  readonly retryAfter?: number;
  readonly headers?: Record<string, string>;

  constructor(status: number, code: string, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.param = options.param;
    this.type = options.type;
    this.retryAfter = options.retryAfter;
    this.headers = options.headers;
  }
}

/** The style of answers given before any route is known (Node's own rejections, a request no context could be made for, `/files/`). */
export const UNROUTED_STYLE: Style = DEFAULT_STYLE;

/** Turns anything thrown into a GatewayError (unknown errors become a 500 without internals). */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return new GatewayError(500, 'internal_error', 'The gateway failed to handle the request.', { cause: error });
}

/** The JSON error body of `error` in the caller's style (the style's own writer, `src/protocols/<style>/`). */
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
