import type { StyleError } from '../style-types.ts';

/** Google's canonical status per HTTP status (statuses missing here: INTERNAL or INVALID_ARGUMENT). */
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

/** An error as the Google SDK reads it: `{error: {code, message, status}}` (no overriding type). */
export function writeGeminiErrorBody(error: StyleError): object {
  const { status } = error;
  const googleStatus = GOOGLE_STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
  return { error: { code: status, message: error.message, status: googleStatus } };
}
