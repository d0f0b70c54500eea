/**
 * The two message events of every messages stream, `message_start` and `message_delta`, read in place
 * when written the way the API writes them: their constant parts compared, their strings read as string
 * literals and only their `usage` object parsed (a parse of the whole event built its message object,
 * its content list and every string: two such parses were a tenth of a translated stream's instructions).
 * Anything else gives undefined and the caller parses the event in full.
 */
import type { StreamEvent } from '../../../translate/canonical.ts';
import { isRecord } from '../../../translate/helpers.ts';
import { hasTextAt, readJsonString } from '../../../translate/stream-text.ts';
import { readAnthropicStop, readAnthropicUsage } from './response.ts';

const START_HEAD = '{"type":"message_start","message":{"id":';
const START_MODEL = ',"type":"message","role":"assistant","model":';
const START_USAGE = ',"content":[],"stop_reason":null,"stop_sequence":null,"usage":';
const DELTA_HEAD = '{"type":"message_delta","delta":{"stop_reason":';
const DELTA_SEQUENCE = ',"stop_sequence":';
const DELTA_USAGE = '},"usage":';
const NULL = 'null';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BRACE_CLOSE = 0x7d;

/** What a `message_start` event decodes to (a start event, then the input usage), or undefined. */
export function readMessageStart(data: string): StreamEvent[] | undefined {
  if (!hasTextAt(data, START_HEAD, 0)) return undefined;
  const idEnd = findStringEnd(data, START_HEAD.length);
  if (idEnd === -1 || !hasTextAt(data, START_MODEL, idEnd)) return undefined;
  const modelStart = idEnd + START_MODEL.length;
  const modelEnd = findStringEnd(data, modelStart);
  if (modelEnd === -1 || !hasTextAt(data, START_USAGE, modelEnd)) return undefined;
  const usage = readUsage(data, modelEnd + START_USAGE.length, 2);
  if (usage === undefined) return undefined;
  const id = readJsonString(data, START_HEAD.length, idEnd);
  const model = readJsonString(data, modelStart, modelEnd);
  if (id === undefined || model === undefined) return undefined;
  return [
    { type: 'start', id, model },
    { type: 'usage', usage: readAnthropicUsage(usage) },
  ];
}

/** What a `message_delta` event decodes to (the finish, when a stop reason is set, then the usage), or undefined. */
export function readMessageDelta(data: string): StreamEvent[] | undefined {
  if (!hasTextAt(data, DELTA_HEAD, 0)) return undefined;
  const reasonStart = DELTA_HEAD.length;
  const reasonEnd = readStringOrNullEnd(data, reasonStart);
  if (reasonEnd === -1 || !hasTextAt(data, DELTA_SEQUENCE, reasonEnd)) return undefined;
  const sequenceStart = reasonEnd + DELTA_SEQUENCE.length;
  const sequenceEnd = readStringOrNullEnd(data, sequenceStart);
  if (sequenceEnd === -1 || !hasTextAt(data, DELTA_USAGE, sequenceEnd)) return undefined;
  const usage = readUsage(data, sequenceEnd + DELTA_USAGE.length, 1);
  if (usage === undefined) return undefined;
  // Each literal is checked whether it is used or not: a broken one makes the event unreadable.
  const reason = data.charCodeAt(reasonStart) === QUOTE ? readJsonString(data, reasonStart, reasonEnd) : null;
  const stopSequence = data.charCodeAt(sequenceStart) === QUOTE ? readJsonString(data, sequenceStart, sequenceEnd) : null;
  if (reason === undefined || stopSequence === undefined) return undefined;
  const out: StreamEvent[] = [];
  if (reason) {
    out.push(stopSequence === null ? { type: 'finish', reason: readAnthropicStop(reason) } : { type: 'finish', reason: readAnthropicStop(reason), stopSequence });
  }
  out.push({ type: 'usage', usage: readAnthropicUsage(usage) });
  return out;
}

/**
 * The `usage` object that runs from `start` to `closing` braces short of the end of `data`: parsed
 * alone. Undefined when `data` does not end with those braces or the text between is not one object
 * (then the whole event is not the JSON the fixed parts promise, and the caller's full parse decides).
 */
function readUsage(data: string, start: number, closing: number): Record<string, unknown> | undefined {
  const end = data.length - closing;
  if (end <= start) return undefined;
  for (let at = end; at < data.length; at++) if (data.charCodeAt(at) !== BRACE_CLOSE) return undefined;
  let usage: unknown;
  try {
    usage = JSON.parse(data.slice(start, end));
  } catch {
    return undefined;
  }
  return isRecord(usage) ? usage : undefined;
}

/** Where the string literal or `null` at `start` ends (just after it), or -1 when neither is there. */
function readStringOrNullEnd(data: string, start: number): number {
  if (data.charCodeAt(start) === QUOTE) return findStringEnd(data, start);
  return hasTextAt(data, NULL, start) ? start + NULL.length : -1;
}

/**
 * Just after the closing quote of the string literal that opens at `start`, or -1 (no literal there, or
 * no end to it). Only finds the end: readJsonString checks the literal.
 */
function findStringEnd(data: string, start: number): number {
  if (data.charCodeAt(start) !== QUOTE) return -1;
  let quote = data.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (data.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = data.indexOf('"', quote + 1);
  }
  return -1;
}
