/**
 * Prompt-cache breakpoints in translation: `cache_control` from the messages style and from
 * chat-completions content parts, system parts and tools reaches a messages-protocol vendor; `chat.cache:
 * auto` places them for clients that cannot; other vendor protocols drop them, named in the dropped list.
 */
import { describe, expect, test } from 'vitest';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { placeCacheBreakpoints } from '../../src/translate/cache-control.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';

const MARK = { type: 'ephemeral' };
const HOUR = { type: 'ephemeral', ttl: '1h' };
const encodeOptions = (policy = createFieldPolicy(false)) => ({ model: 'm', policy, defaultMaxTokens: 100 });

describe('cache_control from chat-completions to a messages-protocol vendor', () => {
  test('on system and user content parts and on a tool', () => {
    const policy = createFieldPolicy(false);
    const request = openAIChatAdapter.decodeRequest({
      model: 'x',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'long rules', cache_control: HOUR }] },
        { role: 'user', content: [{ type: 'text', text: 'doc', cache_control: MARK }, { type: 'text', text: 'question' }] },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } }, cache_control: MARK }],
    }, { policy });
    const { body } = anthropicChat.encodeRequest(request, encodeOptions(policy));
    expect(body.system).toEqual([{ type: 'text', text: 'long rules', cache_control: HOUR }]);
    expect((body.messages as any)[0].content).toEqual([{ type: 'text', text: 'doc', cache_control: MARK }, { type: 'text', text: 'question' }]);
    expect((body.tools as any)[0].cache_control).toEqual(MARK);
    expect(policy.dropped).toEqual([]);
  });

  test('a cache_control that is not an object is a 400 naming it', () => {
    const decode = () => openAIChatAdapter.decodeRequest({ model: 'x', messages: [{ role: 'user', content: [{ type: 'text', text: 'a', cache_control: 'yes' }] }] }, { policy: createFieldPolicy(false) });
    expect(decode).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].content[0].cache_control' }));
  });

  test('on a tool message part (a cached tool result)', () => {
    const request = openAIChatAdapter.decodeRequest({
      model: 'x',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'big result', cache_control: MARK }] },
      ],
    }, { policy: createFieldPolicy(false) });
    const { body } = anthropicChat.encodeRequest(request, encodeOptions());
    expect((body.messages as any)[2].content[0]).toEqual({ type: 'tool_result', tool_use_id: 'c1', content: 'big result', cache_control: MARK });
  });
});

describe('cache_control through the messages style', () => {
  test('system blocks, content blocks and tools keep their breakpoints', () => {
    const request = anthropicChat.decodeRequest({
      model: 'x', max_tokens: 10,
      system: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b', cache_control: HOUR }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'q', cache_control: MARK }] }],
      tools: [{ name: 'f', input_schema: { type: 'object' }, cache_control: MARK }],
    }, { policy: createFieldPolicy(false) });
    expect(request.systemCacheControl).toEqual(HOUR);
    const { body } = anthropicChat.encodeRequest(request, encodeOptions());
    expect(body.system).toEqual([{ type: 'text', text: 'a\n\nb', cache_control: HOUR }]);
    expect((body.messages as any)[0].content[0].cache_control).toEqual(MARK);
    expect((body.tools as any)[0].cache_control).toEqual(MARK);
  });

  test('to a protocol without breakpoints they are dropped and named once', () => {
    const policy = createFieldPolicy(true);
    const request = anthropicChat.decodeRequest({
      model: 'x', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'q', cache_control: MARK }, { type: 'text', text: 'r', cache_control: MARK }] }],
    }, { policy });
    const { body } = geminiChat.encodeRequest(request, encodeOptions(policy));
    expect(JSON.stringify(body)).not.toContain('cache');
    expect(policy.dropped).toEqual(['cache_control']);
    openAIChatAdapter.encodeRequest(request, encodeOptions(policy));
    expect(policy.dropped).toEqual(['cache_control']);
  });
});

describe('chat.cache: auto', () => {
  const request = openAIChatAdapter.decodeRequest({
    model: 'x',
    messages: [{ role: 'system', content: 'rules' }, { role: 'user', content: 'first' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'second' }],
    tools: [{ type: 'function', function: { name: 'f' } }, { type: 'function', function: { name: 'g' } }],
  }, { policy: createFieldPolicy(false) });

  test('places breakpoints on the system prompt, the last tool and the last user turn', () => {
    const { body } = anthropicChat.encodeRequest(request, { ...encodeOptions(), cache: 'auto' });
    expect(body.system).toEqual([{ type: 'text', text: 'rules', cache_control: MARK }]);
    expect((body.tools as any).map((t: any) => t.cache_control)).toEqual([undefined, MARK]);
    expect((body.messages as any).map((m: any) => m.content.map((b: any) => b.cache_control))).toEqual([[undefined], [undefined], [MARK]]);
    expect(request.systemCacheControl).toBeUndefined();
  });

  test("leaves a request with the client's own breakpoints as it is", () => {
    const own = { ...request, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x', cacheControl: HOUR }] }] };
    expect(placeCacheBreakpoints(own)).toBe(own);
  });

  test('is not applied without the option', () => {
    const { body } = anthropicChat.encodeRequest(request, encodeOptions());
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });
});
