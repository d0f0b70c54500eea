/**
 * Reasoning requests in every direction: each client style's reasoning field decodes to the canonical
 * request, and each vendor protocol's encoder writes it, through the model's effort -> budget table; a
 * budget the messages protocol cannot take is clamped, or a 400 naming the client's field when strict.
 */
import { describe, expect, test } from 'vitest';
import type { ClientAdapter } from '../../src/translate/adapter.ts';
import type { ReasoningRequest } from '../../src/translate/canonical.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { responsesAdapter } from '../../src/protocols/openai/responses/index.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';
import { createLenientPolicy, createRequest } from './fixtures.ts';

const USER = [{ role: 'user', content: 'hi' }];
const DECODES: Array<{ style: string; client: ClientAdapter; body: Record<string, unknown>; reasoning: ReasoningRequest }> = [
  { style: 'chat-completions effort', client: openAIChatAdapter, body: { messages: USER, reasoning_effort: 'high' }, reasoning: { enabled: true, effort: 'high', include: true } },
  { style: 'chat-completions minimal', client: openAIChatAdapter, body: { messages: USER, reasoning_effort: 'minimal' }, reasoning: { enabled: true, effort: 'low', include: true } },
  { style: 'chat-completions none', client: openAIChatAdapter, body: { messages: USER, reasoning_effort: 'none' }, reasoning: { enabled: false } },
  { style: 'responses effort + summary', client: responsesAdapter, body: { input: 'hi', reasoning: { effort: 'low', summary: 'auto' } }, reasoning: { enabled: true, effort: 'low', include: true } },
  { style: 'responses effort alone', client: responsesAdapter, body: { input: 'hi', reasoning: { effort: 'medium' } }, reasoning: { enabled: true, effort: 'medium', include: false } },
  { style: 'messages enabled', client: anthropicChat, body: { messages: USER, max_tokens: 9000, thinking: { type: 'enabled', budget_tokens: 5000 } }, reasoning: { enabled: true, budgetTokens: 5000, include: true } },
  { style: 'messages disabled', client: anthropicChat, body: { messages: USER, max_tokens: 10, thinking: { type: 'disabled' } }, reasoning: { enabled: false } },
  {
    style: 'generate-content budget', client: geminiChat, body: { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } } },
    reasoning: { enabled: true, budgetTokens: 2048, include: true },
  },
  {
    style: 'generate-content level', client: geminiChat, body: { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { thinking_config: { thinking_level: 'high' } } },
    reasoning: { enabled: true, effort: 'high' },
  },
];

describe('reasoning requests: decoding', () => {
  test.each(DECODES)('$style', ({ client, body, reasoning }) => {
    const policy = createLenientPolicy();
    expect(client.decodeRequest(body, { policy }).reasoning).toEqual(reasoning);
    expect(policy.dropped).toEqual([]);
  });

  test.each([
    { client: openAIChatAdapter, body: { messages: USER, reasoning_effort: 'max' }, param: 'reasoning_effort' },
    { client: responsesAdapter, body: { input: 'hi', reasoning: { effort: 7 } }, param: 'reasoning.effort' },
    { client: anthropicChat, body: { messages: USER, max_tokens: 10, thinking: { type: 'sometimes' } }, param: 'thinking.type' },
  ])('an unknown reasoning value is a 400 naming $param', ({ client, body, param }) => {
    expect(() => client.decodeRequest(body, { policy: createLenientPolicy() })).toThrow(expect.objectContaining({ status: 400, param }));
  });
});

const TABLE = { low: 2000, medium: 5000, high: 20000 };
const options = (strict = false) => ({ model: 'm', policy: createFieldPolicy(strict), defaultMaxTokens: 4096, reasoningBudgets: TABLE, fieldNames: { reasoning: 'reasoning_effort' } });

describe('reasoning requests: encoding for each vendor protocol', () => {
  test('an effort becomes the table budget for the messages and generate-content protocols, and stays an effort for chat-completions', () => {
    const request = createRequest({ stream: false, maxTokens: 30000, reasoning: { enabled: true, effort: 'high', include: true } });
    expect(anthropicChat.encodeRequest(request, options()).body).toMatchObject({ max_tokens: 30000, thinking: { type: 'enabled', budget_tokens: 20000 } });
    expect(geminiChat.encodeRequest(request, options()).body.generationConfig).toEqual({ maxOutputTokens: 30000, thinkingConfig: { thinkingBudget: 20000, includeThoughts: true } });
    expect(openAIChatAdapter.encodeRequest(request, options()).body).toMatchObject({ reasoning_effort: 'high' });
  });

  test('a budget becomes the smallest effort whose table budget covers it', () => {
    for (const [budget, effort] of [[1500, 'low'], [2000, 'low'], [2001, 'medium'], [9000, 'high']] as const) {
      const request = createRequest({ reasoning: { enabled: true, budgetTokens: budget } });
      expect(openAIChatAdapter.encodeRequest(request, options()).body.reasoning_effort).toBe(effort);
    }
  });

  test('reasoning off: a zero thinking budget, no thinking field, no effort', () => {
    const request = createRequest({ reasoning: { enabled: false } });
    expect((geminiChat.encodeRequest(request, options()).body.generationConfig as any).thinkingConfig).toEqual({ thinkingBudget: 0 });
    expect(anthropicChat.encodeRequest(request, options()).body.thinking).toBeUndefined();
    expect(openAIChatAdapter.encodeRequest(request, options()).body.reasoning_effort).toBeUndefined();
  });

  test('a messages-protocol budget below 1024 or not below max_tokens is clamped when lenient', () => {
    const small = createRequest({ maxTokens: 8000, reasoning: { enabled: true, budgetTokens: 100 } });
    expect(anthropicChat.encodeRequest(small, options()).body).toMatchObject({ max_tokens: 8000, thinking: { budget_tokens: 1024 } });
    const large = createRequest({ maxTokens: 3000, reasoning: { enabled: true, effort: 'high' } });
    expect(anthropicChat.encodeRequest(large, options()).body).toMatchObject({ max_tokens: 3000, thinking: { budget_tokens: 2999 } });
    const tiny = createRequest({ maxTokens: 500, reasoning: { enabled: true, effort: 'low' } });
    expect(anthropicChat.encodeRequest(tiny, options()).body).toMatchObject({ max_tokens: 1524, thinking: { budget_tokens: 1024 } });
  });

  test('under a strict policy that budget is a 400 parameter_out_of_range naming the client field', () => {
    const large = createRequest({ maxTokens: 3000, reasoning: { enabled: true, effort: 'high' } });
    expect(() => anthropicChat.encodeRequest(large, options(true))).toThrow(expect.objectContaining({ status: 400, code: 'parameter_out_of_range', param: 'reasoning_effort' }));
  });

  test('with thinking on the messages protocol gets no temperature (dropped and reported)', () => {
    const policy = createLenientPolicy();
    const request = createRequest({ maxTokens: 9000, temperature: 0.5, reasoning: { enabled: true, effort: 'low' } });
    const body = anthropicChat.encodeRequest(request, { ...options(), policy }).body;
    expect(body.temperature).toBeUndefined();
    expect(policy.dropped).toEqual(['temperature']);
  });
});

test('responses include: reasoning.encrypted_content is served (items always carry it); any other value is dropped', () => {
  const served = createLenientPolicy();
  responsesAdapter.decodeRequest({ input: 'hi', include: ['reasoning.encrypted_content'] }, { policy: served });
  expect(served.dropped).toEqual([]);
  const other = createLenientPolicy();
  responsesAdapter.decodeRequest({ input: 'hi', include: ['reasoning.encrypted_content', 'message.output_text.logprobs'] }, { policy: other });
  expect(other.dropped).toEqual(['include']);
});
