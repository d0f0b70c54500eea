import type { StyleError } from '../style-types.ts';

/** Anthropic's error `type` per status (statuses missing here: the generic client or server type). */
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

/** An error as the Anthropic SDK reads it: `{type: 'error', error: {type, message}, request_id}`. */
export function writeAnthropicErrorBody(error: StyleError, requestId: string): object {
  const { status } = error;
  const type = error.type ?? ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message: error.message }, request_id: requestId };
}
