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
  if (isBearer(authorization)) return authorization.slice(7).trim();
  const readQuery = () => ctx.query;
  for (const facts of SDK_HEADER_STYLES) {
    if (headers[facts.sdkHeader!] === undefined) continue;
    const key = facts.readKey?.(headers, readQuery);
    if (key) return key;
  }
  return getStyleFacts(ctx.style).readKey?.(headers, readQuery);
}

/** Whether an `Authorization` header carries a key as `Bearer <key>` (any case), the header read before any other. */
function isBearer(authorization: string | undefined): authorization is string {
  return authorization !== undefined && authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === 'bearer ';
}

/** The key a connection last authenticated with, so keep-alive requests skip the digest. */
interface ConnectionAuth {
  presented: string;
  key: RuntimeKey;
  snapshot: RequestContext['snapshot'];
  /** The `Authorization: Bearer` header the key came in (undefined: it came another way). */
  header: string | undefined;
}
/** Where a connection (its socket) keeps its {@link ConnectionAuth}: a property read, no hash lookup. */
const CONNECTION_AUTH = Symbol('gateway.connection-auth');
type WithConnectionAuth = { [CONNECTION_AUTH]?: ConnectionAuth };

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
  const socket = ctx.req.socket as WithConnectionAuth;
  const cached = socket[CONNECTION_AUTH];
  const { authorization } = ctx.req.headers;
  // The very header of the connection's last request: the same key is presented (that header is read first),
  // found with no slicing of the header.
  if (cached?.header !== undefined && authorization !== undefined && cached.snapshot === ctx.snapshot && isSameText(cached.header, authorization)) {
    return refuseAdminKey(cached.key);
  }
  const presented = readPresentedKey(ctx) ?? fallbackKey;
  if (!presented) {
    throw new GatewayError(401, 'missing_api_key', `No API key provided. Send it as ${getStyleFacts(ctx.style).keyHint}.`);
  }
  // Constant time here too: a load balancer may carry several clients over one connection.
  if (cached !== undefined && cached.snapshot === ctx.snapshot && isSameText(cached.presented, presented)) {
    return refuseAdminKey(cached.key);
  }
  const key = findKey(ctx, presented);
  socket[CONNECTION_AUTH] = { presented, key, snapshot: ctx.snapshot, header: isBearer(authorization) ? authorization : undefined };
  return refuseAdminKey(key);
}

/**
 * Whether two strings are equal, in a time that depends on their length only, never on where they differ
 * (every code unit is compared; no allocation, no call out of JavaScript).
 */
function isSameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
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
