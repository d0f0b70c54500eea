import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRequestLineFormatter } from '../../src/cli/format-request-line.ts';
import type { RequestContext, UsageEvent } from '../../src/runtime/types.ts';
import { createUsageEvent } from '../../src/runtime/usage-event.ts';
import { GatewayError } from '../../src/errors.ts';

/** The request line as the writer before format-request-line.ts made it (logger.ts's writeInfoLine): the reference. */
function writeReferenceLine(fields: object, time: number): string {
  const json = JSON.stringify(fields);
  const body = json.length > 2 ? `${json.slice(1, -1)},` : '';
  return `{"level":30,"time":${time},${body}"msg":${JSON.stringify('request')}}\n`;
}

/** Texts JSON escapes or treats specially: quotes, backslashes, control characters, lone and paired surrogates, line separators. */
const awkwardText = fc.constantFrom('"', '\\', '\u0000', '\n', '\u001f', '\u007f', '\ud800', 'a\udc00b', '\ud83d\ude00', '\u2028', '</script>', '');
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), awkwardText, fc.constantFrom('bench', 'gpt-4o-mini', '/v1/chat/completions'));
const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e21, 5e-324));
/** Any value a field may hold at run time, types aside: undefined is left out of the line, as JSON.stringify leaves it. */
const anyValue = fc.oneof(text, number, fc.constant(undefined), fc.boolean(), fc.constant(null), fc.jsonValue(), fc.array(text, { maxLength: 3 }));
const optionalText = fc.oneof(text, fc.constant(undefined));
const usage = fc.oneof(
  fc.record({ inputTokens: number, outputTokens: number, totalTokens: number }, { requiredKeys: [] }),
  fc.dictionary(text, fc.oneof(number, fc.boolean(), fc.constant(undefined))),
  anyValue,
);

/** The fields that name the caller, from small pools, so that consecutive events often share them (the formatter keeps them). */
const caller = {
  key: fc.oneof(fc.constantFrom('team-a', 'team-b', undefined), optionalText),
  model: fc.oneof(fc.constantFrom('gpt-4o-mini', 'claude', undefined), optionalText),
  vendor: fc.oneof(fc.constantFrom('openai', undefined), anyValue),
  target: fc.oneof(fc.constantFrom('openai/gpt-4o-mini', undefined), optionalText),
  op: fc.oneof(fc.constantFrom('chat', 'embeddings', undefined), anyValue),
  style: fc.oneof(fc.constantFrom('openai', 'anthropic'), anyValue),
  method: fc.oneof(fc.constantFrom('POST', 'GET'), anyValue),
  path: fc.oneof(fc.constantFrom('/v1/chat/completions', '/v1/messages'), text),
  route: fc.oneof(fc.constantFrom('/v1/chat/completions', undefined), optionalText),
  client: fc.oneof(fc.constantFrom('127.0.0.1', '::1', undefined), optionalText),
  pid: fc.oneof(fc.constantFrom(1234, 99), number),
};

/** Events with createUsageEvent's keys in its order (the optional ones absent or present), holding any values. */
const event = fc.record(
  {
    requestId: fc.oneof(fc.uuid(), text),
    ...caller,
    status: fc.oneof(fc.constantFrom(200, 429, 499), number, anyValue),
    ttfbMs: fc.oneof(number, fc.constant(undefined)),
    durationMs: fc.oneof(number, anyValue),
    overheadMs: number,
    vendorCalls: fc.oneof(fc.nat(3), anyValue),
    attempts: fc.nat(3),
    usage,
    generation: fc.oneof(fc.nat(5), anyValue),
    costUsd: fc.oneof(number, anyValue),
    native: anyValue,
    failedTargets: fc.oneof(fc.array(text, { maxLength: 3 }), anyValue),
    coolingTargets: fc.oneof(fc.array(text, { maxLength: 3 }), anyValue),
    finishReasons: fc.oneof(fc.array(fc.constantFrom('stop', 'length'), { maxLength: 2 }), anyValue),
    error: fc.oneof(fc.constantFrom('rate_limit_exceeded', 'client_closed_request'), anyValue),
    cause: anyValue,
  },
  { requiredKeys: ['requestId', 'key', 'model', 'vendor', 'target', 'op', 'style', 'method', 'path', 'route', 'client', 'pid', 'status', 'ttfbMs', 'durationMs', 'overheadMs', 'vendorCalls', 'attempts', 'usage', 'generation'] },
) as fc.Arbitrary<UsageEvent>;

const time = fc.oneof(fc.constant(1_795_580_044_454), fc.nat());

describe('the request log line', () => {
  it('is byte for byte the line the JSON.stringify writer made, for any sequence of events with any values', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(event, time), { minLength: 1, maxLength: 12 }), (events) => {
        const format = createRequestLineFormatter();
        for (const [usageEvent, at] of events) expect(format(usageEvent, at)).toBe(writeReferenceLine(usageEvent, at));
      }),
      { numRuns: 500 },
    );
  });

  it('writes each event\'s own status, counts, generation and usage names when events repeat some of them (the formatter keeps them)', () => {
    // Few values each, -0 and NaN among them, so that consecutive events often share some and differ in others.
    const count = fc.constantFrom(0, -0, 1, 2, Number.NaN, undefined, '1', null);
    const names = fc.constantFrom('inputTokens', 'outputTokens', 'totalTokens', 'estimated', '"quoted"', '');
    const repeating = fc.record({
      requestId: fc.constantFrom('r-1', 'r"2', 'r\\3', '\u00e9', 'b7c6a7a0-8d4e-4a4f-9f1e-0c1d2e3f4a5b'),
      status: fc.constantFrom(200, 429, -0, 0, Number.NaN, '200'),
      ttfbMs: fc.constantFrom(undefined, 0.25, 1),
      durationMs: fc.constantFrom(1, 2.5),
      overheadMs: fc.constantFrom(0.5, -0),
      vendorCalls: count,
      attempts: count,
      usage: fc.dictionary(names, fc.oneof(fc.nat(3), fc.boolean(), fc.constant(undefined)), { maxKeys: 4 }),
      generation: count,
      error: fc.constantFrom(undefined, undefined, 'rate_limit_exceeded'),
      costUsd: fc.constantFrom(undefined, undefined, 0.5),
    });
    const base = { key: 'k', model: 'm', vendor: 'v', target: 'v/m', op: 'chat', style: 'openai', method: 'POST', path: '/p', route: '/p', client: '::1', pid: 7 };
    fc.assert(
      fc.property(fc.array(fc.tuple(repeating, fc.nat(3)), { minLength: 1, maxLength: 20 }), (events) => {
        const format = createRequestLineFormatter();
        for (const [fields, at] of events) {
          const { requestId, status, ttfbMs, durationMs, overheadMs, vendorCalls, attempts, usage: counts, generation, error, costUsd } = fields;
          // createUsageEvent's order: the caller's fields after the id, the optional ones last.
          const usageEvent = { requestId, ...base, status, ttfbMs, durationMs, overheadMs, vendorCalls, attempts, usage: counts, generation } as unknown as UsageEvent;
          if (costUsd !== undefined) usageEvent.costUsd = costUsd;
          if (error !== undefined) usageEvent.error = error;
          expect(format(usageEvent, at)).toBe(writeReferenceLine(usageEvent, at));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes each caller field of its own event: an event that differs from the one before in one field only', () => {
    // createUsageEvent's keys, in its order.
    const base = {
      requestId: 'r', key: 'k', model: 'm', vendor: 'v', target: 'v/m', op: 'chat', style: 'openai', method: 'POST', path: '/v1/chat/completions',
      route: '/v1/chat/completions', client: '127.0.0.1', pid: 7, status: 200, ttfbMs: 0.2, durationMs: 1, overheadMs: 0.5, vendorCalls: 1, attempts: 1, usage: {}, generation: 1,
    } as UsageEvent;
    const format = createRequestLineFormatter();
    for (const field of Object.keys(caller)) {
      format(base, 1);
      const changed = { ...base, [field]: field === 'pid' ? 8 : 'other "value"' };
      expect(format(changed, 2)).toBe(writeReferenceLine(changed, 2));
      expect(format(base, 3)).toBe(writeReferenceLine(base, 3));
    }
  });

  it('is the reference line for the events createUsageEvent makes from any request (its keys in the formatter order)', () => {
    const context = fc.record({
      id: fc.uuid(),
      key: fc.option(fc.record({ config: fc.record({ name: text }) }), { nil: undefined }),
      modelId: optionalText,
      vendor: fc.option(fc.record({ config: fc.record({ name: text }) }), { nil: undefined }),
      target: fc.option(fc.record({ vendor: text, upstream: text }), { nil: undefined }),
      route: fc.record({ op: fc.constantFrom('chat', 'embeddings', 'models-list'), path: text, native: fc.option(fc.record({ name: text }), { nil: undefined }) }),
      style: fc.constantFrom('openai', 'anthropic', 'gemini'),
      req: fc.record({ method: fc.constantFrom('POST', 'GET'), url: text, headers: fc.record({ 'x-forwarded-for': optionalText }), socket: fc.record({ remoteAddress: optionalText }) }),
      matched: fc.boolean(),
      snapshot: fc.record({ config: fc.record({ server: fc.record({ trustProxy: fc.boolean() }) }), generation: fc.nat(9) }),
      ttfbMs: fc.option(fc.double({ min: 0, max: 1e4, noNaN: true }), { nil: undefined }),
      vendorMs: fc.double({ min: 0, max: 1e4, noNaN: true }),
      vendorCalls: fc.nat(3),
      attempts: fc.nat(3),
      usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat(), totalTokens: fc.nat(), estimated: fc.boolean() }, { requiredKeys: [] }),
      failedTargets: fc.option(fc.array(text, { maxLength: 2 }), { nil: undefined }),
      coolingTargets: fc.option(fc.array(text, { maxLength: 2 }), { nil: undefined }),
    });
    const failure = fc.option(fc.constantFrom(new GatewayError(429, 'rate_limit_exceeded', 'slow down'), new GatewayError(499, 'client_closed_request', 'gone')), { nil: undefined });
    fc.assert(
      fc.property(context, fc.nat(599), fc.double({ min: 0, max: 1e5, noNaN: true }), failure, fc.option(fc.double({ min: 0, max: 1 }), { nil: undefined }), (ctx, status, duration, error, cost) => {
        const usageEvent = createUsageEvent(ctx as unknown as RequestContext, status, duration, error, cost);
        expect(createRequestLineFormatter()(usageEvent, 5)).toBe(writeReferenceLine(usageEvent, 5));
      }),
      { numRuns: 300 },
    );
  });
});
