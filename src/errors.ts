import type { Style } from './config/types.ts';

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
export const UNROUTED_STYLE: Style = 'openai';

/** Turns anything thrown into a GatewayError (unknown errors become a 500 without internals). */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return new GatewayError(500, 'internal_error', 'The gateway failed to handle the request.', { cause: error });
}

const OPENAI_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  501: 'invalid_request_error',
};

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  501: 'invalid_request_error',
  502: 'api_error',
  503: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const GOOGLE_STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'FAILED_PRECONDITION',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
  529: 'UNAVAILABLE',
};

/** The JSON error body of `error` in the caller's style. */
export function renderErrorBody(style: Style, error: GatewayError, requestId: string): object {
  const { status } = error;
  if (style === 'anthropic') {
    const type = error.type ?? ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message: error.message }, request_id: requestId };
  }
  if (style === 'gemini') {
    const googleStatus = GOOGLE_STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
    return { error: { code: status, message: error.message, status: googleStatus } };
  }
  const type = error.type ?? OPENAI_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  return { error: { message: error.message, type, param: error.param ?? null, code: error.code } };
}

/** Status, headers and serialized body of an error response in the caller's style. */
export function renderError(style: Style, error: GatewayError, requestId: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...error.headers };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfter)));
  return { status: error.status, headers, body: JSON.stringify(renderErrorBody(style, error, requestId)) };
}

/**
 * The SSE text that ends an already-started stream with an error, in the caller's style:
 * Anthropic's `event: error`, an OpenAI/Google `data:` error object.
 */
export function renderStreamError(style: Style, error: GatewayError, requestId: string): string {
  const data = JSON.stringify(renderErrorBody(style, error, requestId));
  if (style === 'anthropic') return `event: error\ndata: ${data}\n\n`;
  if (style === 'gemini') return `data: ${data}\r\n\r\n`;
  return `data: ${data}\n\n`;
}
