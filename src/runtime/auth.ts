import { timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../errors.ts';
import { digestKey } from './snapshot.ts';
import type { RequestContext, RuntimeKey } from './types.ts';

/**
 * The key a client presented, from the header its official SDK sends: `Authorization: Bearer` in every
 * style, `x-api-key` in the messages style (or with `anthropic-version`), `x-goog-api-key` or `?key=`
 * in the generate-content style.
 */
export function readPresentedKey(ctx: RequestContext): string | undefined {
  const { headers } = ctx.req;
  const authorization = headers.authorization;
  if (authorization && authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === 'bearer ') {
    return authorization.slice(7).trim();
  }
  if (ctx.style === 'anthropic' || headers['anthropic-version'] !== undefined) {
    const key = headers['x-api-key'];
    if (typeof key === 'string' && key) return key;
  }
  if (ctx.style === 'gemini') {
    const key = headers['x-goog-api-key'];
    if (typeof key === 'string' && key) return key;
    return ctx.query.get('key') ?? undefined;
  }
  return undefined;
}

/** Finds the client key of a request (constant-time comparison of digests) or throws 401. */
export function authenticate(ctx: RequestContext, fallbackKey?: string): RuntimeKey {
  const presented = readPresentedKey(ctx) ?? fallbackKey;
  if (!presented) {
    throw new GatewayError(401, 'missing_api_key', 'No API key provided. Send it as "Authorization: Bearer <key>".');
  }
  const digest = digestKey(presented);
  let found: RuntimeKey | undefined;
  for (const key of ctx.snapshot.keys) {
    if (timingSafeEqual(key.digest, digest) && !found) found = key;
  }
  if (!found) throw new GatewayError(401, 'invalid_api_key', 'Incorrect API key provided.');
  return found;
}
