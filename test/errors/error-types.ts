import type { Style } from '../../src/config/types.ts';

/**
 * Every status the gateway can answer (and 402, which a vendor may answer and the gateway passes on),
 * with the error type (OpenAI, Anthropic) or status (Google) each vendor documents for it. Sources:
 * test/fixtures/vendors (OpenAI's 401 is `invalid_request_error` with code `invalid_api_key`;
 * anthropic/required-headers.md lists Anthropic's table; Google's canonical codes map HTTP 499 to
 * CANCELLED, 409 to ABORTED, 501 to UNIMPLEMENTED, 504 to DEADLINE_EXCEEDED; a client's timeout (408) reads as
 * DEADLINE_EXCEEDED, an overloaded vendor (529) as UNAVAILABLE, a payment requirement (402) as FAILED_PRECONDITION,
 * any other client error as INVALID_ARGUMENT). Statuses a vendor has no type for fall back to the generic client
 * or server type of that style.
 */
export const EXPECTED_TYPES: Record<number, Record<Style, string>> = {
  400: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'INVALID_ARGUMENT' },
  401: { openai: 'invalid_request_error', anthropic: 'authentication_error', gemini: 'UNAUTHENTICATED' },
  402: { openai: 'invalid_request_error', anthropic: 'billing_error', gemini: 'FAILED_PRECONDITION' },
  403: { openai: 'permission_error', anthropic: 'permission_error', gemini: 'PERMISSION_DENIED' },
  404: { openai: 'invalid_request_error', anthropic: 'not_found_error', gemini: 'NOT_FOUND' },
  405: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'INVALID_ARGUMENT' },
  408: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'DEADLINE_EXCEEDED' },
  409: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'ABORTED' },
  413: { openai: 'invalid_request_error', anthropic: 'request_too_large', gemini: 'INVALID_ARGUMENT' },
  415: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'INVALID_ARGUMENT' },
  417: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'INVALID_ARGUMENT' },
  429: { openai: 'rate_limit_error', anthropic: 'rate_limit_error', gemini: 'RESOURCE_EXHAUSTED' },
  499: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'CANCELLED' },
  500: { openai: 'server_error', anthropic: 'api_error', gemini: 'INTERNAL' },
  501: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'UNIMPLEMENTED' },
  502: { openai: 'server_error', anthropic: 'api_error', gemini: 'UNAVAILABLE' },
  503: { openai: 'server_error', anthropic: 'api_error', gemini: 'UNAVAILABLE' },
  504: { openai: 'server_error', anthropic: 'timeout_error', gemini: 'DEADLINE_EXCEEDED' },
  529: { openai: 'server_error', anthropic: 'overloaded_error', gemini: 'UNAVAILABLE' },
};

/** The three caller styles. */
export const STYLES: readonly Style[] = ['openai', 'anthropic', 'gemini'];

/** One row per status and style, for `it.each`. */
export const STATUS_STYLE_ROWS = Object.entries(EXPECTED_TYPES).flatMap(([status, types]) =>
  STYLES.map((style) => ({ status: Number(status), style, expected: types[style] })),
);

/** The exact error body `renderErrorBody` must produce for a GatewayError without overrides. */
export function getExpectedBody(style: Style, status: number, code: string, message: string, requestId: string): object {
  const expected = EXPECTED_TYPES[status][style];
  if (style === 'anthropic') return { type: 'error', error: { type: expected, message }, request_id: requestId };
  if (style === 'gemini') return { error: { code: status, message, status: expected } };
  return { error: { message, type: expected, param: null, code } };
}
