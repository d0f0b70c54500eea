/**
 * A client's or a vendor's value written as text never throws (src/lib/to-text.ts): JSON.parse makes objects
 * whose `toString` is null from `{"toString": null}`, and `String()` or a template literal throws on them.
 */
import { describe, expect, it } from 'vitest';
import { checkImageOptions } from '../../src/images/options.ts';
import { toText } from '../../src/lib/to-text.ts';
import { decodeConverseResponse } from '../../src/protocols/bedrock/decode-response.ts';
import { dashscopeAdapter } from '../../src/protocols/dashscope/index.ts';
import { toTaskError } from '../../src/protocols/dashscope/image-tasks.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { decodeGeminiResponse } from '../../src/protocols/gemini/translate/response.ts';
import { SHAPE_A } from '../../src/images/shape.ts';
import type { VendorEntry } from '../../src/config/types.ts';
import { createLenientPolicy } from '../translate/fixtures.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { defineSetDisabled } from '../../src/console/overrides/define-override-actions.ts';
import type { CompiledConfig } from '../../src/config/types.ts';

const HOSTILE = JSON.parse('{"toString": null, "valueOf": null}');
const HOSTILE_TEXT = '{"toString":null,"valueOf":null}';

describe('values from outside written as text', () => {
  it('are a string as it is, nothing for null, and JSON for anything else', () => {
    expect([toText('a'), toText(null), toText(undefined), toText(5), toText(true), toText([1, 'b']), toText(HOSTILE)]).toEqual(['a', '', '', '5', 'true', '[1,"b"]', HOSTILE_TEXT]);
    expect(() => String(HOSTILE)).toThrow(TypeError);
  });

  it('quote an image option of such an object in the 400 that refuses it', () => {
    const options = { shape: 'openai' as const, splitN: false, styleUnsupported: 'reject' as const, rehost: false, b64FromUrl: true, b64Only: false, pollTimeoutMs: 1000 };
    expect(() => checkImageOptions({ quality: HOSTILE }, SHAPE_A, options, 'm')).toThrow(`\`quality\` '${HOSTILE_TEXT}' is not supported`);
  });

  it('name the one allowed Gemini function of such a name by its JSON', () => {
    const request = geminiChat.decodeRequest({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [HOSTILE] } },
    }, { policy: createLenientPolicy(), stream: false });
    expect(request.toolChoice).toEqual({ type: 'tool', name: HOSTILE_TEXT });
  });

  it('read vendor tool calls, errors and task failures holding such objects', () => {
    const gemini = decodeGeminiResponse({ candidates: [{ content: { parts: [{ functionCall: { name: HOSTILE, args: {} } }] }, finishReason: 'STOP' }] });
    expect(gemini.content).toMatchObject([{ type: 'tool_call', name: HOSTILE_TEXT }]);
    const converse = decodeConverseResponse({ output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: HOSTILE, name: HOSTILE, input: {} } }] } }, stopReason: 'tool_use' });
    expect(converse.content).toMatchObject([{ type: 'tool_call', id: HOSTILE_TEXT, name: HOSTILE_TEXT }]);
    expect(dashscopeAdapter.readError(400, { code: 'Bad', message: HOSTILE })).toMatchObject({ type: 'Bad', message: HOSTILE_TEXT });
    expect(toTaskError({ name: 'ds' } as VendorEntry, HOSTILE, 'failed').message).toContain(`(${HOSTILE_TEXT})`);
  });

  it('read OpenAI and Anthropic tool calls and errors holding such objects, whole and streamed', () => {
    const call = { id: HOSTILE, type: 'function', function: { name: HOSTILE, arguments: HOSTILE } };
    const openai = openAIChatAdapter.decodeResponse({ choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }] });
    expect(openai.content).toMatchObject([{ type: 'tool_call', id: HOSTILE_TEXT, name: HOSTILE_TEXT, arguments: HOSTILE_TEXT }]);
    expect(openAIChatAdapter.decodeError(400, { error: { code: HOSTILE, message: 'm' } }).type).toBe(HOSTILE_TEXT);
    const streamed = openAIChatAdapter.createStreamDecoder().decode({ data: JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...call }] } }] }) });
    expect(streamed).toContainEqual(expect.objectContaining({ type: 'tool_call_start', id: HOSTILE_TEXT, name: HOSTILE_TEXT }));
    const block = { type: 'tool_use', id: HOSTILE, name: HOSTILE, input: {} };
    expect(anthropicChat.decodeResponse({ content: [block, { type: 'thinking', thinking: HOSTILE, signature: 's' }], stop_reason: 'tool_use' }).content).toMatchObject([
      { type: 'tool_call', id: HOSTILE_TEXT, name: HOSTILE_TEXT },
      { type: 'reasoning', text: HOSTILE_TEXT },
    ]);
    const start = anthropicChat.createStreamDecoder().decode({ event: 'content_block_start', data: JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: { toString: null }, name: { toString: null }, input: {} } }) });
    expect(start).toContainEqual(expect.objectContaining({ type: 'tool_call_start', id: '{"toString":null}', name: '{"toString":null}' }));
  });

  it('take an image media type and a console key name of such objects without throwing', () => {
    const request = anthropicChat.decodeRequest({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: HOSTILE, data: 'AAAA' } }] }] }, { policy: createLenientPolicy(), stream: false });
    expect(request.messages[0].content[0]).toMatchObject({ type: 'image', source: { mediaType: HOSTILE_TEXT } });
    const base = { keys: [] } as unknown as CompiledConfig;
    expect(() => defineSetDisabled(base, HOSTILE, true)({ limits: {}, issued: [] } as never)).toThrow(`No key named ${JSON.stringify(HOSTILE_TEXT)}.`);
  });
});
