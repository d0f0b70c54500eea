/** Bedrock errors (HTTP answers and in-stream exceptions) -> the gateway's vendor error. */
import type { VendorError } from '../../translate/canonical.ts';
import { isRecord } from '../../translate/helpers.ts';
import { readOwn } from '../../lib/read-own.ts';

/**
 * The status the gateway answers per Bedrock exception (issue 13): Bedrock's own statuses, except that a
 * model timeout is a gateway timeout and a model not ready (Bedrock: 429) is unavailability, not a limit.
 */
const STATUS: Record<string, number> = {
  ValidationException: 400,
  ServiceQuotaExceededException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  InvalidSignatureException: 403,
  ExpiredTokenException: 403,
  ResourceNotFoundException: 404,
  ConflictException: 409,
  ModelErrorException: 424,
  ThrottlingException: 429,
  InternalServerException: 500,
  ModelStreamErrorException: 502,
  ServiceUnavailableException: 503,
  ModelNotReadyException: 503,
  ModelTimeoutException: 504,
};

/** Exceptions that reject the gateway's own credentials (the 403s), answered 502 `upstream_auth_failed`. */
const AUTH = new Set(['AccessDeniedException', 'UnrecognizedClientException', 'InvalidSignatureException', 'ExpiredTokenException', 'IncompleteSignatureException', 'MissingAuthenticationTokenException']);

/**
 * Reads a Bedrock error: the type from the `x-amzn-errortype` header (`Name:namespace`), else the body's
 * `__type` or `code`, else the status; in a stream (status 0) from the exception's name, which the event
 * stream gives in lowerCamel case (`throttlingException`).
 */
export function decodeConverseError(status: number, body: unknown, headers: Record<string, string | string[] | undefined> = {}): VendorError {
  const type = readType(body, headers) ?? typeOfStatus(status);
  const known = readOwn(STATUS, type);
  const message = isRecord(body) && typeof body.message === 'string'
    ? body.message
    : isRecord(body) && typeof body.Message === 'string' ? body.Message : typeof body === 'string' && body ? body : `The vendor answered HTTP ${status}.`;
  // The exception's own status, except that a vendor's 5xx is never made a client error (a throttling
  // exception answered with HTTP 500 stays a 500).
  const code = known !== undefined && !(status >= 500 && known < 500) ? known : status || 500;
  return { status: code, type, message, authFailure: AUTH.has(type) || status === 401 || (status === 403 && known === undefined) };
}

function readType(body: unknown, headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['x-amzn-errortype'];
  const raw = (Array.isArray(header) ? header[0] : header) ?? (isRecord(body) ? body.__type ?? body.code : undefined);
  if (typeof raw !== 'string' || !raw) return undefined;
  const name = raw.split(':')[0].split('#').pop() ?? raw;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function typeOfStatus(status: number): string {
  if (status === 400) return 'ValidationException';
  if (status === 403) return 'AccessDeniedException';
  if (status === 404) return 'ResourceNotFoundException';
  if (status === 429) return 'ThrottlingException';
  if (status === 503) return 'ServiceUnavailableException';
  return 'InternalServerException';
}
