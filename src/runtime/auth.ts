import { timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../errors.ts';
import { getStyleFacts, STYLES } from '../protocols/styles.ts';
import type { StyleFacts } from '../protocols/style-types.ts';
import { digestKey } from './snapshot.ts';
import type { RequestContext, RuntimeKey } from './types.ts';

/** The styles whose SDK is recognised by a header of its own (their keys are read on any route). */
const SDK_HEADER_STYLES = Object.values(STYLES).filter((facts: StyleFacts) => facts.sdkHeader !== undefined);

/**
 * The key a client presented, from the header its official SDK sends: `Authorization: Bearer` in every
 * style, else where the route's style reads it (`src/protocols/<style>/style.ts`: `x-api-key`,
 * `x-goog-api-key` or `?key=`), or the style whose SDK header the request carries (an Anthropic SDK's
 * `anthropic-version` on a shared route).
 */
export function readPresentedKey(ctx: RequestContext): string | undefined {
  const { headers } = ctx.req;
  const authorization = headers.authorization;
  if (authorization && authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === 'bearer ') {
    return authorization.slice(7).trim();
  }
  const readQuery = () => ctx.query;
  for (const facts of SDK_HEADER_STYLES) {
    if (headers[facts.sdkHeader!] === undefined) continue;
    const key = facts.readKey?.(headers, readQuery);
    if (key) return key;
  }
  return getStyleFacts(ctx.style).readKey?.(headers, readQuery);
}

/** The key a connection last authenticated with, so keep-alive requests skip the digest. */
interface ConnectionAuth {
  presented: Buffer;
  key: RuntimeKey;
  snapshot: RequestContext['snapshot'];
}
const connectionAuth = new WeakMap<object, ConnectionAuth>();

/** An admin key opens the admin API only: calling a model with one is refused, in the caller's style. */
function refuseAdminKey(key: RuntimeKey): RuntimeKey {
  if (key.config.admin) {
    throw new GatewayError(403, 'admin_key_not_for_models', 'This is an admin key: it opens the admin API only; use a client key to call models.');
  }
  return key;
}

/**
 * Finds the client key of a request or throws 401 (403 for an admin key). The presented key's sha256 digest is compared with
 * every configured digest in constant time; a keep-alive connection that presents the same key again
 * (under the same config snapshot) reuses the result of its own earlier check.
 */
export function authenticate(ctx: RequestContext, fallbackKey?: string): RuntimeKey {
  const presented = readPresentedKey(ctx) ?? fallbackKey;
  if (!presented) {
    throw new GatewayError(401, 'missing_api_key', `No API key provided. Send it as ${getStyleFacts(ctx.style).keyHint}.`);
  }
  const socket = ctx.req.socket;
  const cached = connectionAuth.get(socket);
  const bytes = Buffer.from(presented);
  // Constant time here too: a load balancer may carry several clients over one connection.
  if (cached && cached.snapshot === ctx.snapshot && cached.presented.length === bytes.length && timingSafeEqual(cached.presented, bytes)) {
    return refuseAdminKey(cached.key);
  }
  const key = findKey(ctx, presented);
  connectionAuth.set(socket, { presented: bytes, key, snapshot: ctx.snapshot });
  return refuseAdminKey(key);
}

/** The configured key whose digest matches `presented` (constant time over every key), or undefined. */
export function findKeyByDigest(keys: readonly RuntimeKey[], presented: string): RuntimeKey | undefined {
  const digest = digestKey(presented);
  let found: RuntimeKey | undefined;
  for (const key of keys) {
    if (timingSafeEqual(key.digest, digest) && !found) found = key;
  }
  return found;
}

function findKey(ctx: RequestContext, presented: string): RuntimeKey {
  const found = findKeyByDigest(ctx.snapshot.keys, presented);
  if (!found) throw new GatewayError(401, 'invalid_api_key', 'Incorrect API key provided.');
  return found;
}
