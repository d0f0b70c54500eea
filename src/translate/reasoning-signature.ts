/**
 * Reasoning signatures on their way through clients. A vendor's signature (a messages `thinking`
 * block's `signature`, `redacted_thinking` data, a generate-content `thoughtSignature`) only verifies
 * at the target that made it, so the gateway hands it to clients wrapped in a token that also names
 * that target: `gwr1.` + base64url of `{o: origin, s: signature, r: redacted data, c: tool call id,
 * t: 1 when it is the signature of a text part}`,
 * the origin being a digest of the target ({@link getSignatureOrigin}: clients never see vendor names).
 * Clients send the token back unchanged (it sits in fields they echo: see the README's "Reasoning");
 * the decoders unwrap it, and {@link stripForeignReasoning} removes what the next target cannot verify.
 * A value without the prefix (an answer passed through untranslated) has no known origin: it is kept
 * only when the client's style is the target's own protocol.
 */
import { createHash } from 'node:crypto';
import type { CanonicalRequest, ContentPart } from './canonical.ts';

const PREFIX = 'gwr1.';

/** What a token carries. */
export interface SignatureToken {
  origin?: string;
  signature?: string;
  redacted?: string;
  /** The tool call the signature belongs to (a responses `reasoning` item placed before its call). */
  callId?: string;
  /** The signature belongs to the text before it (a reasoning item or block placed after that text). */
  text?: boolean;
}

/** The token of a signature made by `origin` (a value that is already a token is returned as is). */
export function wrapSignature(token: SignatureToken): string {
  const value = token.signature ?? token.redacted;
  if (value !== undefined && value.startsWith(PREFIX)) return value;
  const packed: Record<string, string> = {};
  if (token.origin !== undefined) packed.o = token.origin;
  if (token.signature !== undefined) packed.s = token.signature;
  if (token.redacted !== undefined) packed.r = token.redacted;
  if (token.callId !== undefined) packed.c = token.callId;
  const flags = token.text ? { t: 1 } : {};
  return PREFIX + Buffer.from(JSON.stringify({ ...packed, ...flags })).toString('base64url');
}

/** Reads a value a client sent back: a token, or a bare vendor signature (origin unknown). */
export function readSignature(value: string): SignatureToken {
  if (!value.startsWith(PREFIX)) return { signature: value };
  let packed: unknown;
  try {
    packed = JSON.parse(Buffer.from(value.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return {};
  }
  if (typeof packed !== 'object' || packed === null) return {};
  const fields = packed as Record<string, unknown>;
  const read = (key: string): string | undefined => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
  const origin = read('o');
  // Tokens made before origins were digests name the target as `<protocol>:<vendor>` (a digest has no `:`).
  const digest = origin?.includes(':') ? digestOrigin(origin) : origin;
  return { origin: digest, signature: read('s'), redacted: read('r'), callId: read('c'), ...(fields.t === 1 ? { text: true } : {}) };
}

/**
 * The target a signature belongs to, as tokens carry it: a digest of `<protocol>:<vendor name>` (16
 * base64url characters of its SHA-256), so that tokens do not show clients the gateway's vendor names.
 * Made once per vendor when the runtime snapshot is built (`RuntimeVendor.signatureOrigin`), not per request.
 */
export function getSignatureOrigin(protocol: string, vendor: string): string {
  return digestOrigin(`${protocol}:${vendor}`);
}

function digestOrigin(target: string): string {
  return createHash('sha256').update(target).digest('base64url').slice(0, 16);
}

/**
 * The request without signatures the target `origin` did not make: reasoning parts carrying a foreign
 * signature or redacted data are removed, foreign tool call and text signatures dropped. `native`: the client's
 * style is the target's protocol, so a signature of unknown origin is kept.
 */
export function stripForeignReasoning(request: CanonicalRequest, origin: string, native: boolean): CanonicalRequest {
  // Signatures ride only on assistant turns: a request without one (every first turn) is not copied.
  if (!request.messages.some((message) => message.role === 'assistant')) return request;
  const own = (from: string | undefined): boolean => (from === undefined ? native : from === origin);
  let changed = false;
  const messages = request.messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const content: ContentPart[] = [];
    for (const part of message.content) {
      if (part.type === 'reasoning' && (part.signature !== undefined || part.redacted !== undefined) && !own(part.origin)) {
        changed = true;
        continue;
      }
      if ((part.type === 'tool_call' || part.type === 'text') && part.signature !== undefined && !own(part.origin)) {
        changed = true;
        const { signature: _signature, origin: _origin, ...rest } = part;
        content.push(rest);
        continue;
      }
      content.push(part);
    }
    return { ...message, content };
  });
  return changed ? { ...request, messages } : request;
}
