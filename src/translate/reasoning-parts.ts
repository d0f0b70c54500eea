/** Reasoning parts a client sent back, and the checks vendor adapters make on them (see reasoning-signature.ts). */
import type { CanonicalRequest, ContentPart, ReasoningPart, TextPart } from './canonical.ts';
import { readSignature, wrapSignature } from './reasoning-signature.ts';

/**
 * A reasoning part from a client's thinking `text` and the token it echoed (`value`): the token's
 * signature or redacted data with its origin. `redacted`: the value is redacted thinking.
 */
export function readReasoningPart(text: string, value: string | undefined, redacted = false): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', text };
  if (!value) return part;
  const token = readSignature(value);
  if (token.signature !== undefined && !redacted) part.signature = token.signature;
  if (token.redacted !== undefined || (redacted && token.signature !== undefined)) part.redacted = token.redacted ?? token.signature;
  if (token.origin !== undefined) part.origin = token.origin;
  if (token.callId !== undefined) part.callId = token.callId;
  if (token.text) part.forText = true;
  return part;
}

/**
 * Moves the signatures that belong to a tool call (a token with a call id, carried in a reasoning
 * block by styles with no field on the call) onto that call, and those that belong to a text (a token
 * marked as a text's, placed after it) onto the text before them (an empty text when there is none);
 * other parts are kept in order.
 */
export function bindSignatures(parts: ContentPart[]): ContentPart[] {
  const bound = new Map<string, ReasoningPart>();
  for (const part of parts) if (part.type === 'reasoning' && part.callId !== undefined) bound.set(part.callId, part);
  if (bound.size === 0 && !parts.some((part) => part.type === 'reasoning' && part.forText)) return parts;
  const out: ContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'reasoning' && part.callId !== undefined) continue;
    if (part.type === 'reasoning' && part.forText) {
      if (part.signature !== undefined) bindTextSignature(out, part.signature, part.origin);
      continue;
    }
    const own = part.type === 'tool_call' ? bound.get(part.id) : undefined;
    if (part.type === 'tool_call' && own?.signature !== undefined) {
      out.push({ ...part, signature: own.signature, ...(own.origin === undefined ? {} : { origin: own.origin }) });
    } else out.push(part);
  }
  return out;
}

/** Puts a text's signature on the last part when it is a text without one, else on an empty text. */
function bindTextSignature(out: ContentPart[], signature: string, origin: string | undefined): void {
  const last = out[out.length - 1];
  const from = origin === undefined ? {} : { origin };
  if (last?.type === 'text' && last.signature === undefined) out[out.length - 1] = { ...last, signature, ...from };
  else out.push({ type: 'text', text: '', signature, ...from });
}

/** The last signed text of a turn (styles with one signature field per message carry its). */
export function findSignedText(parts: ContentPart[]): TextPart | undefined {
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i];
    if (part.type === 'text' && part.signature !== undefined) return part;
  }
  return undefined;
}

/** The token a client receives for a text's signature, marked as a text's (absent: the text has none). */
export function writeTextSignature(signature: string | undefined, origin: string | undefined): string | undefined {
  return signature === undefined ? undefined : wrapSignature({ origin, signature, text: true });
}

/** The signature and origin of a token a client echoed on a text or tool call (none: no value). */
export function readSignedFields(value: string | undefined): { signature?: string; origin?: string } {
  const token = value ? readSignature(value) : {};
  return { ...(token.signature === undefined ? {} : { signature: token.signature }), ...(token.origin === undefined ? {} : { origin: token.origin }) };
}

/** The token a client receives for a tool call's signature (absent: the call has none). */
export function writeCallSignature(signature: string | undefined, origin: string | undefined, callId?: string): string | undefined {
  return signature === undefined ? undefined : wrapSignature({ origin, signature, callId });
}

/** The token a client receives for a reasoning part's signature or redacted data (absent: neither). */
export function writeReasoningToken(part: ReasoningPart, origin: string | undefined): string | undefined {
  if (part.signature === undefined && part.redacted === undefined) return undefined;
  return wrapSignature({ origin: part.origin ?? origin, signature: part.signature, redacted: part.redacted });
}

/**
 * Whether the last assistant turn made tool calls without signed (or redacted) reasoning: a target that
 * verifies thinking on tool turns would refuse it with thinking on (its signatures were stripped).
 */
export function lacksSignedReasoning(request: CanonicalRequest): boolean {
  const last = [...request.messages].reverse().find((message) => message.role === 'assistant');
  if (!last || !last.content.some((part) => part.type === 'tool_call')) return false;
  return !last.content.some((part) => part.type === 'reasoning' && (part.signature || part.redacted !== undefined));
}
