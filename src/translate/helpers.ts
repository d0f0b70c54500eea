/** Small helpers shared by the translation adapters (no protocol knowledge here). */
import { randomBytes } from 'node:crypto';
import { GatewayError } from '../errors.ts';
import type { ContentPart, ImageSource } from './canonical.ts';

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A random id suffix (24 hex characters). */
export function createIdSuffix(): string {
  return randomBytes(12).toString('hex');
}

/** `id` when it already carries `prefix`, else `prefix` + id (or a random id). */
export function withIdPrefix(prefix: string, id: string | undefined): string {
  if (!id) return prefix + createIdSuffix();
  return id.startsWith(prefix) ? id : prefix + id;
}

/** Reads an image URL: `data:` URLs become base64 sources, others stay URLs. */
export function readImageUrl(url: string): ImageSource {
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const header = url.slice(5, comma);
    if (comma > 0 && header.endsWith(';base64')) {
      return { kind: 'base64', mediaType: header.slice(0, -7) || 'application/octet-stream', data: url.slice(comma + 1) };
    }
  }
  return { kind: 'url', url };
}

/** An image source as one URL (base64 sources become `data:` URLs). */
export function getImageUrl(source: ImageSource): string {
  return source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}

const QUERY_OR_HASH = /[?#]/;

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** The media type of an image URL guessed from its file extension (`image/jpeg` when unknown). */
export function guessImageType(url: string): string {
  const path = url.split(QUERY_OR_HASH, 1)[0];
  const dot = path.lastIndexOf('.');
  return (dot >= 0 && IMAGE_TYPES[path.slice(dot + 1).toLowerCase()]) || 'image/jpeg';
}

/**
 * Parses tool call arguments (JSON text) into the object a protocol with object arguments needs.
 * Empty text is `{}`; text that is not a JSON object is a 400 naming `field`.
 */
export function parseToolArguments(text: string, field: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError(400, 'invalid_tool_arguments', `The tool call arguments in '${field}' are not valid JSON.`, { param: field });
  }
  if (!isRecord(value)) {
    throw new GatewayError(400, 'invalid_tool_arguments', `The tool call arguments in '${field}' are not a JSON object.`, { param: field });
  }
  return value;
}

/**
 * A vendor's block index as a key: a number or numeric text as `Number()` reads it, NaN for anything else
 * (`Number()` of an object whose `valueOf` and `toString` are null throws, and JSON.parse makes such objects).
 */
export function readIndex(value: unknown): number {
  return typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
}

/** A number field or undefined (null and other types count as absent). */
export function readNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The JSON of one vendor stream event (`data` of an SSE event, or an event-stream payload): an object, or a 502
 * `upstream_invalid_response`. `unwrap` may make an object of another JSON value first (Gemini's `[{...}]`).
 */
export function parseStreamEvent(text: string, unwrap?: (value: unknown) => unknown): Record<string, any> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const event = unwrap ? unwrap(data) : data;
  if (isRecord(event)) return event;
  throw new GatewayError(502, 'upstream_invalid_response', 'The vendor sent an unreadable stream event.');
}

/**
 * Turns for protocols that take strictly alternating roles with tool results first in a user turn (messages,
 * Converse): each message's blocks (`writeBlocks`; a message without any is skipped), consecutive messages of
 * one role joined into one turn, and in user turns the blocks `isToolResult` names moved to the front.
 */
export function joinTurns<Block>(
  messages: readonly { role: string; content: readonly ContentPart[] }[],
  writeBlocks: (content: readonly ContentPart[]) => Block[],
  isToolResult: (block: Block) => boolean,
): Array<{ role: string; content: Block[] }> {
  const out: Array<{ role: string; content: Block[] }> = [];
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at];
    const blocks = writeBlocks(message.content);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === message.role) last.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  }
  for (let at = 0; at < out.length; at++) {
    if (out[at].role === 'user') putToolResultsFirst(out[at].content, isToolResult);
  }
  return out;
}

/**
 * Moves the blocks `isToolResult` names to the front of `blocks`, each group in its order (what a stable
 * sort by that rank gives), in place; a turn with no tool result after another block is left as it is
 * (no sort: Array#sort makes a work copy even of a list of one).
 */
function putToolResultsFirst<Block>(blocks: Block[], isToolResult: (block: Block) => boolean): void {
  let firstOther = -1;
  let misplaced = false;
  for (let at = 0; at < blocks.length; at++) {
    if (!isToolResult(blocks[at])) {
      if (firstOther === -1) firstOther = at;
    } else if (firstOther !== -1) misplaced = true;
  }
  if (!misplaced) return;
  const others = blocks.slice(firstOther).filter((block) => !isToolResult(block));
  let to = firstOther;
  for (let at = firstOther; at < blocks.length; at++) if (isToolResult(blocks[at])) blocks[to++] = blocks[at];
  for (const block of others) blocks[to++] = block;
}

/** Throws the 400 of a request body that is not the JSON object a chat request must be. */
export function assertRecord(body: unknown): asserts body is Record<string, any> {
  if (!isRecord(body)) throw new GatewayError(400, 'invalid_request', 'The request body must be a JSON object.');
}

/** Parses tool call arguments produced by a vendor; text that is not a JSON object is a 502. */
export function parseVendorArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch {
    // reported below
  }
  throw new GatewayError(502, 'upstream_invalid_response', 'The vendor produced tool call arguments that are not a JSON object.');
}
