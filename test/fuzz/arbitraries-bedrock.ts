import { crc32 } from 'node:zlib';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import fc from 'fast-check';
import { splitPieces, type ScriptedAnswer } from '../helpers/scripted-vendor.ts';
import { arbitraryOddJson } from './arbitraries-json-changes.ts';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

const EVENT_TYPES = ['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata', 'unknownEvent', '', 'constructor', '__proto__'];
const EXCEPTIONS = ['throttlingException', 'validationException', 'modelStreamErrorException', 'internalServerException', 'serviceUnavailableException', 'accessDeniedException', 'modelTimeoutException', 'weirdException', ''];
const ERROR_TYPES = ['ValidationException', 'ThrottlingException', 'AccessDeniedException', 'ExpiredTokenException', 'ModelErrorException', 'ModelTimeoutException', 'InternalServerException', 'ServiceUnavailableException', 'UnknownOperationException', 'Weird:ns', '#', ':', ''];
/** Bedrock's HTTP status per exception it names in `x-amzn-errortype`. */
const TYPED_STATUS: Record<string, number> = { ValidationException: 400, AccessDeniedException: 403, ExpiredTokenException: 403, ResourceNotFoundException: 404, ModelErrorException: 424, ThrottlingException: 429, InternalServerException: 500, ServiceUnavailableException: 503, ModelNotReadyException: 429, ModelTimeoutException: 408 };

/** JSON a Converse payload may hold in place of the right value: wrong types, odd numbers, deep nesting, the odd values of every fuzz. */
const arbitraryOdd = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  arbitraryOddJson,
  fc.constantFrom(null, -1, 1e308, 2 ** 53 + 1, '', [], {}, 'end_turn', 'tool_use', { text: 5 }, { toolUse: null }, { reasoningContent: { text: 5 } }),
);

/** A payload of a stream event: the real shapes with some fields odd, or any JSON at all (arrays, strings, null). */
const arbitraryEventPayload = fc.oneof(
  fc.record({ contentBlockIndex: fc.oneof(fc.nat(3), arbitraryOdd), delta: fc.oneof(fc.record({ text: fc.oneof(fc.string(), arbitraryOdd) }), fc.record({ toolUse: fc.record({ input: fc.oneof(fc.string(), arbitraryOdd) }) }), fc.record({ reasoningContent: fc.dictionary(fc.constantFrom('text', 'signature', 'redactedContent'), fc.oneof(fc.string(), arbitraryOdd)) }), arbitraryOdd) }),
  fc.record({ contentBlockIndex: fc.oneof(fc.nat(3), arbitraryOdd), start: fc.oneof(fc.record({ toolUse: fc.record({ toolUseId: arbitraryOdd, name: arbitraryOdd }) }), arbitraryOdd) }),
  fc.record({ stopReason: fc.oneof(fc.constantFrom('end_turn', 'tool_use', 'max_tokens', 'guardrail_intervened', 'nonsense'), arbitraryOdd) }),
  fc.record({ usage: fc.oneof(fc.record({ inputTokens: arbitraryOdd, outputTokens: arbitraryOdd, totalTokens: arbitraryOdd, cacheReadInputTokens: arbitraryOdd }), arbitraryOdd) }),
  arbitraryOdd,
);

/** Error text a hostile vendor sends: ordinary, or quoting a credential the gateway holds (given as `secrets`). */
function arbitraryMessage(secrets: string[]): fc.Arbitrary<string> {
  return fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...secrets).map((s) => `denied for ${s}`), fc.constantFrom(...secrets).map((s) => `Bearer ${s}`));
}

function encode(headers: MessageHeaders, body: string): Buffer {
  return Buffer.from(codec.encode({ headers, body: fromUtf8(body) }));
}

const text = (value: string) => ({ type: 'string' as const, value });

/** One well-framed message: an event of any type with any payload, an exception, or an error message. */
function arbitraryFrame(secrets: string[]): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...EVENT_TYPES), arbitraryEventPayload).map(([type, payload]) => encode({ ':event-type': text(type), ':message-type': text('event') }, JSON.stringify(payload))) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...EXCEPTIONS), fc.oneof(arbitraryMessage(secrets).map((message) => JSON.stringify({ message })), fc.jsonValue().map((v) => JSON.stringify(v)), fc.string())).map(([type, body]) => encode({ ':exception-type': text(type), ':message-type': text('exception') }, body)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ERROR_TYPES), arbitraryMessage(secrets)).map(([code, message]) => encode({ ':error-code': text(code), ':error-message': text(message), ':message-type': text('error') }, '')) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...EVENT_TYPES), fc.string()).map(([type, body]) => encode({ ':event-type': text(type), ':message-type': text('event') }, body)) },
  );
}

/** A prelude whose own CRC is right but whose lengths lie (headers longer than the message, or a huge total). */
function forgePrelude(total: number, headersLength: number): Buffer {
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total >>> 0, 0);
  prelude.writeUInt32BE(headersLength >>> 0, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  return Buffer.concat([prelude, Buffer.alloc(Math.min(total, 64) > 12 ? Math.min(total, 64) - 12 : 4)]);
}

/** A corruption of a stream's bytes: a flipped byte (a CRC breaks), a cut tail, lying lengths, junk between messages. */
const arbitraryCorruption = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('prelude' as const), total: fc.oneof(fc.constantFrom(0, 15, 16, 17, 0xffffffff, 16 * 1024 * 1024 + 1), fc.nat()), headers: fc.oneof(fc.constantFrom(0, 0xffffffff, 1 << 20), fc.nat()) }),
  fc.record({ kind: fc.constant('junk' as const), junk: fc.uint8Array({ minLength: 1, maxLength: 40 }) }),
);

type Corruption = typeof arbitraryCorruption extends fc.Arbitrary<infer T> ? T : never;

function corrupt(bytes: Buffer, corruption: Corruption): Buffer {
  switch (corruption.kind) {
    case 'flip': {
      if (bytes.length === 0) return bytes;
      const copy = Buffer.from(bytes);
      copy[corruption.at % copy.length] ^= 1 << corruption.bit;
      return copy;
    }
    case 'truncate':
      return bytes.subarray(0, Math.floor(bytes.length * corruption.keep));
    case 'prelude':
      return Buffer.concat([bytes, forgePrelude(corruption.total, corruption.headers)]);
    case 'junk':
      return Buffer.concat([bytes, Buffer.from(corruption.junk)]);
    default:
      return bytes;
  }
}

const arbitraryEnding = fc.constantFrom<ScriptedAnswer['ending']>('end', 'end', 'end', 'cut', 'stall');
const arbitraryStreamType = fc.constantFrom('application/vnd.amazon.eventstream', 'application/vnd.amazon.eventstream', 'application/json', 'text/html');

/** A ConverseStream answer: messages (good, odd, exceptions), one corruption, split into reads, some ending. */
function arbitraryStreamAnswer(secrets: string[]): fc.Arbitrary<ScriptedAnswer> {
  return fc
    .record({ frames: fc.array(arbitraryFrame(secrets), { maxLength: 8 }), corruption: arbitraryCorruption, cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }), ending: arbitraryEnding, type: arbitraryStreamType })
    .map(({ frames, corruption, cuts, ending, type }) => ({ status: 200, headers: { 'content-type': type }, pieces: splitPieces(corrupt(Buffer.concat(frames), corruption), cuts), ending }));
}

/** A Converse JSON answer: the real shape with odd parts, any JSON, or not JSON at all. */
function arbitraryConverseAnswer(): fc.Arbitrary<ScriptedAnswer> {
  const content = fc.array(fc.oneof(fc.record({ text: fc.oneof(fc.string(), arbitraryOdd) }), fc.record({ toolUse: fc.oneof(fc.record({ toolUseId: arbitraryOdd, name: arbitraryOdd, input: arbitraryOdd }), arbitraryOdd) }), fc.record({ reasoningContent: arbitraryOdd }), arbitraryOdd), { maxLength: 4 });
  const body = fc.oneof(
    fc.record({ output: fc.oneof(fc.record({ message: fc.oneof(fc.record({ role: arbitraryOdd, content: fc.oneof(content, arbitraryOdd) }), arbitraryOdd) }), arbitraryOdd), stopReason: arbitraryOdd, usage: arbitraryOdd }).map((v) => JSON.stringify(v)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.constantFrom('', '{', '<html>busy</html>', '{"output":{"message":{"content":[{"text":"cut'),
  );
  return fc.record({ body, ending: arbitraryEnding, type: fc.constantFrom('application/json', 'text/html', 'application/vnd.amazon.eventstream') }).map(({ body, ending, type }) => ({ status: 200, headers: { 'content-type': type }, pieces: [body], ending }));
}

/** A Bedrock error answer: any 4xx/5xx, an `x-amzn-errortype` (or none), odd Retry-After, a body quoting credentials. */
function arbitraryErrorAnswer(secrets: string[]): fc.Arbitrary<ScriptedAnswer> {
  return fc
    .record({
      // A known exception comes with Bedrock's own status for it (the gateway answers by the exception's name).
      kind: fc.oneof(
        fc.constantFrom(...Object.entries(TYPED_STATUS)).map(([type, status]) => ({ type: type as string | undefined, status })),
        fc.record({ type: fc.option(fc.constantFrom('UnknownOperationException', 'Weird:ns', '#', ':', ''), { nil: undefined }), status: fc.oneof(fc.constantFrom(400, 401, 403, 404, 408, 500, 502, 503, 504), fc.integer({ min: 400, max: 599 })) }),
      ),
      retryAfter: fc.option(fc.oneof(fc.constantFrom('0', '1', '-1', '1e9', 'soon', 'Wed, 21 Oct 2015 07:28:00 GMT', '99999999999999999999'), fc.string({ maxLength: 12 }).filter((s) => /^[\x21-\x7e]*$/.test(s))), { nil: undefined }),
      body: fc.oneof(
        arbitraryMessage(secrets).map((message) => JSON.stringify({ message })),
        arbitraryMessage(secrets).map((Message) => JSON.stringify({ Message, __type: 'com.amazon#ThrottlingException' })),
        fc.constant(JSON.stringify({ message: 'rejected {credentials}' })),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        fc.constantFrom('', 'not json {credentials}', '<html>oops</html>'),
      ),
      ending: arbitraryEnding,
    })
    .map(({ kind: { status, type }, retryAfter, body, ending }) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (type !== undefined) headers['x-amzn-errortype'] = type;
      if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
      return { status, headers, pieces: [body], ending };
    });
}

/** A hostile Bedrock answer of any kind; `secrets` are credential values it may quote in error text. */
export function arbitraryBedrockAnswer(secrets: string[]): fc.Arbitrary<ScriptedAnswer> {
  return fc.oneof({ weight: 3, arbitrary: arbitraryStreamAnswer(secrets) }, { weight: 2, arbitrary: arbitraryConverseAnswer() }, { weight: 2, arbitrary: arbitraryErrorAnswer(secrets) });
}
