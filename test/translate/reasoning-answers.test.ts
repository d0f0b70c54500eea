/**
 * Reasoning answers, plain and streamed, from each vendor protocol to each client style, and back: the
 * assistant turn a client appends (as it received it) decodes to the vendor's own signatures, which
 * reach that vendor again and are stripped for any other target.
 */
import { describe, expect, test } from 'vitest';
import type { ClientAdapter, VendorAdapter } from '../../src/translate/adapter.ts';
import type { ContentPart } from '../../src/translate/canonical.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { responsesAdapter } from '../../src/protocols/openai/responses/index.ts';
import { getSignatureOrigin, stripForeignReasoning } from '../../src/translate/reasoning-signature.ts';
import { createLenientPolicy, createRequest, decodeStream, META } from './fixtures.ts';
import { readBackTurn } from './reasoning-turns.ts';

const ARGS = '{"city":"Paris"}';
const sse = (events: Array<[string, unknown]>) => events.map(([event, data]) => ({ event, data: JSON.stringify(data) }));

/** Each protocol's answer: thinking, then a tool call; `parts` is what it means canonically. */
const VENDORS: Array<{ protocol: string; vendor: VendorAdapter; body: unknown; stream: Array<{ event?: string; data: string }>; parts: ContentPart[] }> = [
  {
    protocol: 'anthropic', vendor: anthropicChat,
    body: {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 30 },
      content: [{ type: 'thinking', thinking: 'Weather needs a tool.', signature: 'SIG_A' }, { type: 'redacted_thinking', data: 'ENC_A' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
    },
    stream: sse([
      ['message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 10, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Weather needs ' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'a tool.' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG_A' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'ENC_A' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: ARGS } }],
      ['content_block_stop', { type: 'content_block_stop', index: 2 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 30 } }],
      ['message_stop', { type: 'message_stop' }],
    ]),
    parts: [
      { type: 'reasoning', text: 'Weather needs a tool.', signature: 'SIG_A', origin: getSignatureOrigin('anthropic', 'claude-vendor') },
      { type: 'reasoning', text: '', redacted: 'ENC_A', origin: getSignatureOrigin('anthropic', 'claude-vendor') },
      { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: ARGS },
    ],
  },
  {
    protocol: 'gemini', vendor: geminiChat,
    body: {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Weather needs a tool.', thought: true }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG_G' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 8, thoughtsTokenCount: 22, totalTokenCount: 40 },
    },
    stream: [
      { data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Weather needs a tool.', thought: true }] } }] }) },
      { data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: 'call_g', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG_G' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 8, thoughtsTokenCount: 22, totalTokenCount: 40 } }) },
    ],
    parts: [
      { type: 'reasoning', text: 'Weather needs a tool.' },
      { type: 'tool_call', id: expect.any(String), name: 'get_weather', arguments: ARGS, signature: 'SIG_G', origin: getSignatureOrigin('gemini', 'gemini-vendor') },
    ],
  },
  {
    protocol: 'openai', vendor: openAIChatAdapter,
    body: {
      id: 'c1', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, reasoning_content: 'Weather needs a tool.', tool_calls: [{ id: 'call_o', type: 'function', function: { name: 'get_weather', arguments: ARGS } }] } }],
      usage: { prompt_tokens: 10, completion_tokens: 30, total_tokens: 40, completion_tokens_details: { reasoning_tokens: 22 } },
    },
    stream: [
      { data: JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Weather needs ' } }] }) },
      { data: JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { reasoning_content: 'a tool.' } }] }) },
      { data: JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_o', type: 'function', function: { name: 'get_weather', arguments: ARGS } }] }, finish_reason: 'tool_calls' }] }) },
      { data: JSON.stringify({ id: 'c1', choices: [], usage: { prompt_tokens: 10, completion_tokens: 30, total_tokens: 40, completion_tokens_details: { reasoning_tokens: 22 } } }) },
      { data: '[DONE]' },
    ],
    parts: [{ type: 'reasoning', text: 'Weather needs a tool.' }, { type: 'tool_call', id: 'call_o', name: 'get_weather', arguments: ARGS }],
  },
];

const CLIENTS: Array<{ style: string; client: ClientAdapter; reasoningText: (answer: any) => string }> = [
  { style: 'chat-completions', client: openAIChatAdapter, reasoningText: (a) => a.choices[0].message.reasoning_content },
  { style: 'messages', client: anthropicChat, reasoningText: (a) => a.content.filter((b: any) => b.type === 'thinking').map((b: any) => b.thinking).join('') },
  { style: 'generate-content', client: geminiChat, reasoningText: (a) => a.candidates[0].content.parts.filter((p: any) => p.thought).map((p: any) => p.text).join('') },
  { style: 'responses', client: responsesAdapter, reasoningText: (a) => a.output.filter((i: any) => i.type === 'reasoning').flatMap((i: any) => i.summary.map((s: any) => s.text)).join('') },
];

const origin = (protocol: string) => getSignatureOrigin(protocol, `${protocol === 'anthropic' ? 'claude' : protocol}-vendor`);

describe.each(VENDORS)('reasoning from a $protocol vendor', ({ protocol, vendor, body, stream, parts }) => {
  describe.each(CLIENTS)('to a $style client', ({ style, client, reasoningText }) => {
    test.each([false, true])('stream %s: the client sees the thinking text and reasoning tokens, and its turn sent back carries the signatures', (streamed) => {
      const meta = { ...META, origin: origin(protocol) };
      const request = createRequest({ stream: streamed, includeUsage: true });
      let answer: any;
      if (streamed) {
        const encoder = client.createStreamEncoder(meta, request);
        const text = decodeStream(vendor, stream).events.map((event) => encoder.encode(event)).join('') + encoder.end();
        answer = readBackTurn(style, text);
      } else {
        answer = client.encodeResponse(vendor.decodeResponse(body), meta, request);
      }
      expect(reasoningText(answer)).toBe('Weather needs a tool.');
      expect(JSON.stringify(answer)).not.toContain('"SIG_');
      const turn = client.decodeRequest(answerToRequest(style, answer), { policy: createLenientPolicy() }).messages[1];
      expect(turn.role).toBe('assistant');
      expect(turn.content).toEqual(parts.map((p) => (p.type === 'tool_call' ? { ...p, id: expect.any(String) } : p)));
      const back = { ...createRequest(), messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }, turn] };
      const foreign = stripForeignReasoning(back, getSignatureOrigin('other', 'vendor'), false).messages[1].content;
      expect(JSON.stringify(foreign)).not.toMatch(/SIG_|ENC_/);
      expect(stripForeignReasoning(back, origin(protocol), false).messages[1].content).toEqual(turn.content);
    });
  });
});

test('usage: reasoning tokens reach every style', () => {
  const usage = VENDORS[1].vendor.decodeResponse(VENDORS[1].body).usage;
  const request = createRequest({ stream: false });
  expect((openAIChatAdapter.encodeResponse({ content: [], finishReason: 'stop', usage }, META, request) as any).usage.completion_tokens_details.reasoning_tokens).toBe(22);
  expect((responsesAdapter.encodeResponse({ content: [], finishReason: 'stop', usage }, META, request) as any).usage.output_tokens_details.reasoning_tokens).toBe(22);
  expect((geminiChat.encodeResponse({ content: [], finishReason: 'stop', usage }, META, request) as any).usageMetadata.thoughtsTokenCount).toBe(22);
  expect((anthropicChat.encodeResponse({ content: [], finishReason: 'stop', usage }, META, request) as any).usage).toMatchObject({ output_tokens: 30, output_tokens_details: { thinking_tokens: 22 } });
});

/** The next request of a client that appends the assistant turn it received, then the tool's result. */
function answerToRequest(style: string, answer: any): unknown {
  if (style === 'chat-completions') {
    const message = answer.choices[0].message;
    return { messages: [{ role: 'user', content: 'hi' }, message, { role: 'tool', tool_call_id: message.tool_calls[0].id, content: '{"t":1}' }] };
  }
  if (style === 'messages') {
    const use = answer.content.find((b: any) => b.type === 'tool_use');
    return { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: answer.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '{"t":1}' }] }] };
  }
  if (style === 'generate-content') {
    const content = answer.candidates[0].content;
    const call = content.parts.find((p: any) => p.functionCall).functionCall;
    return { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, content, { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { t: 1 } } }] }] };
  }
  const call = answer.output.find((i: any) => i.type === 'function_call');
  return { input: [{ role: 'user', content: 'hi' }, ...answer.output, { type: 'function_call_output', call_id: call.call_id, output: '{"t":1}' }] };
}
