import type { H3Event } from 'h3';
import { getRequestHeader } from 'h3';
import { GatewayError } from '../errors.ts';
import type { AdminSources } from './types.ts';

/**
 * The admin key of an admin API request, from `Authorization: Bearer` only: a key in the query string
 * or a cookie is never read (it would end up in logs and browser history, or be sent by any page).
 * Throws 401 `missing_admin_key` / `invalid_admin_key`; a client key is `invalid_admin_key` too.
 */
export function checkAdminKey(event: H3Event, sources: AdminSources): string {
  const authorization = getRequestHeader(event, 'authorization');
  const presented = authorization && /^bearer /i.test(authorization) ? authorization.slice(7).trim() : '';
  if (!presented) {
    throw new GatewayError(401, 'missing_admin_key', 'The admin API needs an admin key in the Authorization: Bearer header.');
  }
  const name = sources.findAdminKey(presented);
  if (name === undefined) throw new GatewayError(401, 'invalid_admin_key', 'The key presented is not an admin key of this gateway.');
  return name;
}
