import type { H3Event } from 'h3';
import { setResponseHeader } from 'h3';
import { GatewayError } from '../errors.ts';
import { checkAdminKey } from './check-admin-key.ts';
import type { AdminSources } from './types.ts';

/** Refused sign-ins (a key that is not an admin key) allowed per client address and window. */
export interface SignInLimit {
  failures: number;
  windowMs: number;
}

/** Addresses remembered at most (the oldest are forgotten first). */
const MAX_ADDRESSES = 10_000;

/**
 * {@link checkAdminKey} with failed sign-ins limited per client address (the socket's: the admin listener
 * is reached directly): after `limit.failures` wrong keys within `limit.windowMs`, the address gets 429
 * `too_many_failed_sign_ins` with `Retry-After` until the window ends, whatever it presents. Each wrong key
 * is logged with the address (never the key).
 */
export function createAdminKeyGate(sources: AdminSources, limit: SignInLimit = { failures: 5, windowMs: 60_000 }) {
  const failures = new Map<string, { count: number; since: number }>();
  return (event: H3Event): string => {
    const client = event.node.req.socket.remoteAddress ?? 'unknown';
    const now = Date.now();
    let entry = failures.get(client);
    if (entry && now - entry.since >= limit.windowMs) {
      failures.delete(client);
      entry = undefined;
    }
    if (entry && entry.count >= limit.failures) {
      const seconds = Math.max(1, Math.ceil((entry.since + limit.windowMs - now) / 1000));
      setResponseHeader(event, 'retry-after', seconds);
      throw new GatewayError(429, 'too_many_failed_sign_ins', `Too many wrong keys from this address: try again in ${seconds} s.`);
    }
    try {
      return checkAdminKey(event, sources);
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'invalid_admin_key') {
        if (!entry) failures.set(client, (entry = { count: 0, since: now }));
        entry.count += 1;
        if (failures.size > MAX_ADDRESSES) failures.delete(failures.keys().next().value as string);
        sources.logger?.warn({ client, failures: entry.count, path: event.path.split('?')[0] }, 'admin sign-in refused: not an admin key');
      }
      throw error;
    }
  };
}
