import type { StyleError } from '../style-types.ts';

/** OpenAI's error `type` per status (statuses missing here: the generic client or server type). */
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

/** An error as the OpenAI SDK reads it: `{error: {message, type, param, code}}`. */
export function writeOpenAIErrorBody(error: StyleError): object {
  const { status } = error;
  const type = error.type ?? OPENAI_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  return { error: { message: error.message, type, param: error.param ?? null, code: error.code } };
}
