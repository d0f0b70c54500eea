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
 * protocol error body by the protocol that owns the style (`renderError` in src/protocols/render-error.ts,
 * and `renderStreamError` once a stream has begun).
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

/** Turns anything thrown into a GatewayError (unknown errors become a 500 without internals). */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return new GatewayError(500, 'internal_error', 'The gateway failed to handle the request.', { cause: error });
}
