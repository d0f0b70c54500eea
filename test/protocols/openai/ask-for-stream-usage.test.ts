import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openaiAdapter } from '../../../src/protocols/openai/index.ts';

/** What the adapter sends for a body (its bytes as the client sent them), as text; undefined: the body as it is. */
function ask(body: Record<string, unknown>, op: 'chat' | 'completions' | 'embeddings' = 'chat'): string | undefined {
  const out = openaiAdapter.askForStreamUsage!(op, body, Buffer.from(JSON.stringify(body)));
  return out === undefined ? undefined : out.toString();
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('OpenAI streams ask the vendor for usage the client did not ask for', () => {
  it('splices stream_options into a streamed chat body that has none, keeping every other byte', () => {
    const body = { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] };
    expect(ask(body)).toBe(`${JSON.stringify(body).slice(0, -1)},"stream_options":{"include_usage":true}}`);
  });

  it('replaces a stream_options of null instead of adding a second key', () => {
    const out = ask({ model: 'gpt-4o', stream: true, stream_options: null, messages: [] })!;
    expect(count(out, '"stream_options"')).toBe(1);
    expect(JSON.parse(out)).toEqual({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [] });
  });

  it('keeps the other stream options and their place', () => {
    const out = ask({ model: 'gpt-4o', stream_options: { include_obfuscation: false }, stream: true })!;
    expect(out).toBe('{"model":"gpt-4o","stream_options":{"include_obfuscation":false,"include_usage":true},"stream":true}');
  });

  it('leaves a body alone that asks already, is not streamed, or is not chat or completions', () => {
    expect(ask({ model: 'm', stream: true, stream_options: { include_usage: true } })).toBeUndefined();
    expect(ask({ model: 'm', stream: false })).toBeUndefined();
    expect(ask({ model: 'm' })).toBeUndefined();
    expect(ask({ model: 'm', stream: true }, 'embeddings')).toBeUndefined();
  });

  it('sends any streamed body with include_usage set once and every other field unchanged', () => {
    const options = fc.oneof(fc.constant(undefined), fc.constant(null), fc.record({ include_usage: fc.constant(false), include_obfuscation: fc.boolean() }, { requiredKeys: [] }));
    const body = fc.tuple(fc.dictionary(fc.string().filter((k) => !['stream', 'stream_options', '__proto__'].includes(k)), fc.jsonValue()), options, fc.constantFrom<'chat' | 'completions'>('chat', 'completions'));
    fc.assert(
      fc.property(body, ([fields, streamOptions, op]) => {
        const sent = { ...fields, stream: true, ...(streamOptions === undefined ? {} : { stream_options: streamOptions }) };
        const out = ask(sent, op)!;
        expect(count(out, '"stream_options"')).toBe(1);
        // Compared as JSON reads it (-0 is sent as 0).
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify({ ...sent, stream_options: { ...(streamOptions ?? {}), include_usage: true } })));
      }),
    );
  });
});
