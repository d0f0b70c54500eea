import { GatewayError } from '../errors.ts';

/** What went wrong in one attempt, in the terms of a routing policy's `fallbackOn` conditions. */
export interface AttemptFailure {
  /**
   * status: the vendor answered an error status; timeout: no answer in time; connect: the connection
   * failed or was reset; content_policy / context_length: the vendor refused the content or its size;
   * aborted: the client left; other: anything else (a gateway bug, a translation error).
   */
  kind: 'status' | 'timeout' | 'connect' | 'content_policy' | 'context_length' | 'aborted' | 'other';
  /** HTTP status of a `status` failure (and of policy/size refusals when known). */
  status?: number;
  /** How long the vendor asked to wait (its `Retry-After`), in milliseconds. */
  retryAfterMs?: number;
}

/** An error that says itself what failure it is (the escape hatch for attempt functions). */
export interface ClassifiedError {
  failure: AttemptFailure;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/**
 * Classifies what an attempt threw: an error carrying `failure` says so itself; otherwise network and
 * timeout errors are found by their code along the `cause` chain (undici and Node codes), the runtime's
 * own no-answer errors (502 `upstream_unreachable`, 504 `upstream_timeout`) are `connect` and `timeout`,
 * and any other GatewayError is a `status` failure, or `content_policy` / `context_length` by its code
 * (`content_policy_violation`, `context_length_exceeded`), with its `retryAfter`.
 */
export function classifyFailure(error: unknown): AttemptFailure {
  if (isClassified(error)) return error.failure;
  const network = findNetworkFailure(error);
  if (network) return network;
  if (error instanceof GatewayError) {
    const { status, code } = error;
    if (code === 'upstream_unreachable' && status === 502) return { kind: 'connect' };
    if (code === 'upstream_timeout' && status === 504) return { kind: 'timeout' };
    if (code === 'content_policy_violation') return { kind: 'content_policy', status };
    if (code === 'context_length_exceeded') return { kind: 'context_length', status };
    const retryAfterMs = error.retryAfter === undefined ? undefined : error.retryAfter * 1000;
    return { kind: 'status', status, retryAfterMs };
  }
  return { kind: 'other' };
}

function isClassified(error: unknown): error is ClassifiedError {
  const failure = (error as Partial<ClassifiedError> | null)?.failure;
  return typeof failure === 'object' && failure !== null && typeof failure.kind === 'string';
}

function findNetworkFailure(error: unknown): AttemptFailure | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (name === 'TimeoutError' || (typeof code === 'string' && TIMEOUT_CODES.has(code))) return { kind: 'timeout' };
    if (typeof code === 'string' && CONNECT_CODES.has(code)) return { kind: 'connect' };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
