import type { H3Event } from 'h3';
import { setResponseHeader, setResponseStatus } from 'h3';
import { GatewayError } from '../errors.ts';

/**
 * The admin listener's error body: `{"error":{"code","message"}}` with the error's status. Anything
 * that is not a GatewayError is a 500 without internals.
 */
export function renderAdminError(event: H3Event, error: unknown): { error: { code: string; message: string } } {
  const failure = error instanceof GatewayError ? error : new GatewayError(500, 'internal_error', 'The admin listener failed to answer.');
  setResponseStatus(event, failure.status);
  if (failure.status === 401) setResponseHeader(event, 'www-authenticate', 'Bearer realm="gateway-admin"');
  return { error: { code: failure.code, message: failure.message } };
}
