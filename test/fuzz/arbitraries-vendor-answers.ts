import { readFileSync } from 'node:fs';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { splitPieces, type ScriptedAnswer, type ScriptedRequest } from '../helpers/scripted-vendor.ts';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';
import { applyJsonChanges, arbitraryJsonChange, type JsonChange } from './arbitraries-json-changes.ts';

/** The JSON protocols a scripted vendor speaks in the odd-answer fuzz. */
export type ScriptedJsonProtocol = 'openai' | 'anthropic' | 'gemini';

/** Each protocol's verified answers (test/fixtures/vendors): whole JSON answers and SSE streams. */
const ANSWERS: Record<ScriptedJsonProtocol, { json: string[]; sse: string[] }> = {
  openai: { json: ['openai/chat-response.json', 'openai/chat-tools-response.json', 'openai/responses-response.json'], sse: ['openai/chat-stream.sse', 'openai/chat-tools-stream.sse', 'openai/responses-stream.sse'] },
  anthropic: { json: ['anthropic/messages-response.json'], sse: ['anthropic/messages-stream.sse', 'anthropic/messages-tools-stream.sse'] },
  gemini: { json: ['gemini/generateContent-response.json', 'gemini/function-call-response.json'], sse: ['gemini/streamGenerateContent.sse'] },
};

const read = (name: string) => readFileSync(`${VENDOR_FIXTURES}/${name}`, 'utf8');

/** The JSON text `text` with `changes` applied in order (text that is not JSON stays as it is). */
function applyChanges(text: string, changes: JsonChange[]): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(applyJsonChanges(json, changes)) ?? 'null';
}

/** What a case does to a stream: change events' data, drop or repeat one, cut the end, rename an event. */
interface StreamDamage {
  changes: { event: number; change: JsonChange }[];
  drop: number | null;
  repeat: number | null;
  keepEvents: number | null;
  rename: { event: number; name: string } | null;
}

const arbitraryStreamDamage: fc.Arbitrary<StreamDamage> = fc.record({
  changes: fc.array(fc.record({ event: fc.nat(), change: arbitraryJsonChange }), { minLength: 1, maxLength: 3 }),
  drop: fc.option(fc.nat(), { freq: 4 }),
  repeat: fc.option(fc.nat(), { freq: 4 }),
  keepEvents: fc.option(fc.nat(), { freq: 4 }),
  rename: fc.option(fc.record({ event: fc.nat(), name: fc.constantFrom('error', 'message_stop', 'content_block_start', 'x', '') }), { freq: 4 }),
});

/** The SSE `text` damaged: events are split at blank lines, their `data:` JSON changed, then joined again. */
function damageStream(text: string, damage: StreamDamage): string {
  let events = text.split('\n\n').filter((event) => event.trim() !== '');
  for (const { event, change } of damage.changes) {
    const i = event % events.length;
    events[i] = events[i].replace(/^data: (.*)$/m, (_, data: string) => `data: ${applyChanges(data, [change])}`);
  }
  if (damage.drop !== null) events.splice(damage.drop % events.length, 1);
  if (damage.repeat !== null && events.length > 0) events.splice(damage.repeat % events.length, 0, events[damage.repeat % events.length]);
  if (damage.keepEvents !== null) events = events.slice(0, damage.keepEvents % (events.length + 1));
  if (damage.rename !== null && events.length > 0) {
    const i = damage.rename.event % events.length;
    events[i] = events[i].replace(/^event: .*$/m, `event: ${damage.rename.name}`);
  }
  return events.map((event) => `${event}\n\n`).join('');
}

/** Whether the request asks for a stream: `"stream": true` in the body, or Gemini's streaming method. */
function asksForStream({ url, body }: ScriptedRequest): boolean {
  if (url.includes(':streamGenerateContent')) return true;
  try {
    return JSON.parse(body.toString()).stream === true;
  } catch {
    return false;
  }
}

/** How a case damages a verified answer (printed as it is when a case fails). */
export interface AnswerDamage {
  /** Which of the protocol's answers of the kind asked for (modulo their count). */
  pick: number;
  /** Changes to a whole JSON answer. */
  changes: JsonChange[];
  /** Damage to a stream. */
  stream: StreamDamage;
  /** Where the bytes are cut into reads (fractions of their length). */
  cuts: number[];
  ending: ScriptedAnswer['ending'];
  /** The answer's content coding, applied unasked (`lie`: said to be gzip, sent plain; `squash`: a coding nobody knows). */
  coding: AnswerCoding;
}

/** Content codings a vendor may answer in though the gateway asked for none. */
type AnswerCoding = 'none' | 'gzip' | 'br' | 'deflate' | 'lie' | 'squash';

/** The bytes a vendor sends for `body` in `coding`, and the `content-encoding` it says they are in. */
function codeAnswer(body: Buffer, coding: AnswerCoding): { bytes: Buffer; headers: Record<string, string> } {
  if (coding === 'none') return { bytes: body, headers: {} };
  if (coding === 'lie') return { bytes: body, headers: { 'content-encoding': 'gzip' } };
  if (coding === 'squash') return { bytes: body, headers: { 'content-encoding': 'x-squash' } };
  const bytes = coding === 'gzip' ? gzipSync(body) : coding === 'br' ? brotliCompressSync(body) : deflateSync(body);
  return { bytes, headers: { 'content-encoding': coding } };
}

/** Damage to any verified answer: see {@link defineAnswerScript}. */
export const arbitraryAnswerDamage: fc.Arbitrary<AnswerDamage> = fc.record({
  pick: fc.nat(),
  changes: fc.array(arbitraryJsonChange, { minLength: 1, maxLength: 3 }),
  stream: arbitraryStreamDamage,
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
  ending: fc.constantFrom<ScriptedAnswer['ending']>('end', 'end', 'end', 'end', 'cut'),
  coding: fc.constantFrom<AnswerCoding>('none', 'none', 'none', 'none', 'gzip', 'br', 'deflate', 'lie', 'squash'),
});

/**
 * A script for a scripted vendor of `protocol`: a verified answer of that protocol, the kind the request asked
 * for (a stream or a whole answer), with fields replaced by odd values or removed, events dropped, repeated or
 * cut short, sent in pieces that split events, sometimes in a content coding nobody asked for (or a false one),
 * and sometimes ended by a reset.
 */
export function defineAnswerScript(protocol: ScriptedJsonProtocol, damage: AnswerDamage): (request: ScriptedRequest) => ScriptedAnswer {
  return (request) => {
    const stream = asksForStream(request);
    const names = ANSWERS[protocol][stream ? 'sse' : 'json'];
    const base = read(names[damage.pick % names.length]);
    const body = stream ? damageStream(base, damage.stream) : applyChanges(base, damage.changes);
    const type = stream ? 'text/event-stream' : 'application/json';
    const { bytes, headers } = codeAnswer(Buffer.from(body), damage.coding);
    return { status: 200, headers: { 'content-type': type, ...headers }, pieces: splitPieces(bytes, damage.cuts), ending: damage.ending };
  };
}
