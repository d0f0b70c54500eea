/**
 * Prompt-cache breakpoints in the canonical request: read from a client's `cache_control` objects, placed
 * by the gateway for models with `chat.cache: auto`, and dropped (listed in `x-gateway-dropped-fields`)
 * for a vendor protocol without explicit breakpoints (its cache, if any, is automatic).
 */
import type { CacheControl, CanonicalRequest } from './canonical.ts';
import type { FieldPolicy } from './field-policy.ts';
import { readOptionalObject } from './read-field.ts';

/** The breakpoint `chat.cache: auto` places (the messages protocol's default five-minute cache). */
const AUTO: CacheControl = { type: 'ephemeral' };

/** A `cache_control` field: undefined when absent, else the object or a 400 naming `path`. */
export function readCacheControl(value: unknown, path: string): CacheControl | undefined {
  return readOptionalObject(value, path);
}

/** Whether the request holds any breakpoint (on the system prompt, a tool or a content part). */
export function hasCacheControl(request: CanonicalRequest): boolean {
  if (request.systemCacheControl) return true;
  if (request.tools?.some((tool) => tool.cacheControl)) return true;
  return request.messages.some((message) => message.content.some((part) => part.cacheControl));
}

/**
 * The request with breakpoints where a client that cannot set them would put them (`chat.cache: auto`):
 * the end of the system prompt, the last tool, and the last part of the last user turn (three of the
 * messages protocol's four). A request with any breakpoint of its own is returned as it is.
 */
export function placeCacheBreakpoints(request: CanonicalRequest): CanonicalRequest {
  if (hasCacheControl(request)) return request;
  const placed: CanonicalRequest = { ...request };
  if (request.system) placed.systemCacheControl = { ...AUTO };
  const tools = request.tools;
  if (tools && tools.length > 0) placed.tools = [...tools.slice(0, -1), { ...tools[tools.length - 1], cacheControl: { ...AUTO } }];
  let at = request.messages.length - 1;
  while (at >= 0 && (request.messages[at].role !== 'user' || request.messages[at].content.length === 0)) at--;
  if (at !== -1) {
    const message = request.messages[at];
    const content = [...message.content.slice(0, -1), { ...message.content[message.content.length - 1], cacheControl: { ...AUTO } }];
    placed.messages = [...request.messages.slice(0, at), { ...message, content }, ...request.messages.slice(at + 1)];
  }
  return placed;
}

/** For a vendor protocol without breakpoints: the request's breakpoints are dropped, named once. */
export function dropCacheControl(request: CanonicalRequest, policy: FieldPolicy): void {
  if (hasCacheControl(request)) policy.ignore('cache_control');
}
