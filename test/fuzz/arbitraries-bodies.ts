import fc from 'fast-check';
import type { Operation } from '../../src/config/types.ts';
import { applyJsonChanges, arbitraryJsonChange, arbitraryOddJson, PROTOTYPE_NAMES, type JsonChange } from './arbitraries-json-changes.ts';

/** A plausible JSON body of `op` naming `model` (what an SDK would send), `stream` where the op streams. */
export function describeBody(op: Operation, model: string, stream: boolean, text = 'hello there'): Record<string, unknown> {
  const messages = [{ role: 'user', content: text }];
  switch (op) {
    case 'chat':
      return { model, messages, stream };
    case 'messages':
      return { model, max_tokens: 64, messages, stream };
    case 'count-tokens':
      return { model, messages, contents: [{ role: 'user', parts: [{ text }] }] };
    case 'generate-content':
    case 'stream-generate-content':
      return { contents: [{ role: 'user', parts: [{ text }] }] };
    case 'responses':
      return { model, input: text, stream };
    case 'completions':
      return { model, prompt: text, stream };
    case 'embeddings':
    case 'moderations':
      return { model, input: text };
    case 'rerank':
      return { model, query: text, documents: ['a', 'b'] };
    case 'images-generations':
      return { model, prompt: text, n: 1, size: '1024x1024' };
    case 'audio-speech':
      return { model, input: text, voice: 'alloy' };
    case 'videos-create':
      return { model, prompt: text };
    default:
      return { model, input: text };
  }
}

/** Field names and values a hostile client sends: wrong types, non-Latin-1, CR/LF and prototype names, odd numbers. */
const arbitraryFieldName = fc.oneof(
  fc.constantFrom('model', 'messages', 'stream', 'max_tokens', 'contents', 'tools', 'temperature', 'n', 'size', 'parameters', 'input', 'prompt', ...PROTOTYPE_NAMES),
  fc.constantFrom('温度', 'naïve', 'a\r\nx-injected: 1', 'emoji😀', ''),
  fc.string({ maxLength: 16 }),
);
const arbitraryOddValue = fc.oneof(
  arbitraryOddJson,
  fc.constantFrom(null, -1, 0, 1e308, -0, 2 ** 53 + 1, '', 'wizard', [], {}, [{}], [{ role: 'wizard', content: 5 }], [{ role: 'user', parts: 'hi' }], { text: 5 }),
);

/** `body` with some fields replaced by odd values, added or removed, or one of its nested values changed. */
export function arbitraryMutation(body: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const edit = fc.oneof(
    fc.tuple(fc.constant('set' as const), fc.oneof(fc.constantFrom(...Object.keys(body)), arbitraryFieldName), arbitraryOddValue),
    fc.tuple(fc.constant('drop' as const), fc.constantFrom(...Object.keys(body)), fc.constant(null)),
    fc.tuple(fc.constant('deep' as const), fc.constant(''), arbitraryJsonChange),
  );
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => {
    const copy = structuredClone(body);
    for (const [kind, field, value] of edits) {
      if (kind === 'drop') delete copy[field];
      else if (kind === 'deep') applyJsonChanges(copy, [value as JsonChange]);
      else Object.defineProperty(copy, field, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  });
}

/** Where a deep value is put: inside a tool's parameters, an image request's parameters, or a message. */
const DEEP_PLACES = ['tools', 'parameters', 'messages', 'contents', 'extra'] as const;

/** `depth` levels of nested arrays and objects as JSON text (built as text: no recursion on either side). */
export function formatDeepJson(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    if (i % 2 === 0) {
      open += '{"a":';
      close = '}' + close;
    } else {
      open += '[';
      close = ']' + close;
    }
  }
  return `${open}1${close}`;
}

/** A body whose JSON nests `depth` levels inside one of the plausible body's fields (or a new one). */
export function formatDeepBody(body: Record<string, unknown>, depth: number, place: (typeof DEEP_PLACES)[number]): string {
  const plain = JSON.stringify({ ...body, [place]: '@@DEEP@@' });
  // The whole body counts: the root object and the field's own level are 2 more.
  return plain.replace('"@@DEEP@@"', formatDeepJson(depth - 2));
}

/** A nesting depth past any reasonable limit (the gateway's is 128), and where it sits. */
export const arbitraryDeepNesting = fc.tuple(fc.oneof(fc.integer({ min: 200, max: 3000 }), fc.constant(40_000)), fc.constantFrom(...DEEP_PLACES));

/** Bytes that are not UTF-8, spliced into a JSON string value (the JSON is otherwise valid). */
export const arbitraryInvalidUtf8 = fc.constantFrom(
  Buffer.from([0xff]),
  Buffer.from([0xc3]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0x80, 0x80]),
);

/** `json` (a plausible body's text) with `bad` bytes inside its first string value. */
export function spliceBytes(json: string, bad: Buffer): Buffer {
  const text = Buffer.from(json, 'utf8');
  const at = text.indexOf('hello there');
  const cut = at === -1 ? text.indexOf('"', 1) + 1 : at + 5;
  return Buffer.concat([text.subarray(0, cut), bad, text.subarray(cut)]);
}
