/**
 * A Gemini answer's text signature (on a plain text part, sending it back only recommended by Google)
 * in a multi-turn conversation with reasoning on, each official SDK: the client appends the assistant
 * turn exactly as it received it (plain or streamed) and asks again; the vendor gets the text back with
 * its own signature on it.
 */
import { describe, expect, test } from 'vitest';
import type OpenAI from 'openai';
import type { Content } from '@google/genai';
import { signGeminiText } from '../../src/protocols/gemini/simulator/thinking.ts';
import { anthropic, google, gw, MODEL, openai, useTranslationGateway } from './translation-drivers.ts';

useTranslationGateway();

const PROMPT = 'Say hello';
const ANSWER = `Echo: ${PROMPT}`;

/** Per client style: the first answer's text as the client saw it, after a second turn that sends it back. */
const TURNS: Record<string, (model: string, stream: boolean) => Promise<string>> = {
  async 'chat-completions'(model, stream) {
    const params = { model, messages: [{ role: 'user' as const, content: PROMPT }], reasoning_effort: 'low' as const };
    const first: OpenAI.ChatCompletion = stream ? await openai().chat.completions.stream(params).finalChatCompletion() : await openai().chat.completions.create(params);
    const message = first.choices[0].message;
    await openai().chat.completions.create({ ...params, messages: [...params.messages, message as any, { role: 'user', content: 'more' }] });
    return message.content ?? '';
  },
  async messages(model, stream) {
    const params = { model, max_tokens: 4000, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, messages: [{ role: 'user' as const, content: PROMPT }] };
    const first = stream ? await anthropic().messages.stream(params).finalMessage() : await anthropic().messages.create(params);
    await anthropic().messages.create({ ...params, messages: [...params.messages, { role: 'assistant', content: first.content }, { role: 'user', content: 'more' }] });
    return first.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  },
  async 'generate-content'(model, stream) {
    const contents: Content[] = [{ role: 'user', parts: [{ text: PROMPT }] }];
    const config = { thinkingConfig: { thinkingBudget: 1024 } };
    const chunks = stream ? await google().models.generateContentStream({ model, contents, config }) : [await google().models.generateContent({ model, contents, config })];
    const parts: any[] = [];
    for await (const chunk of chunks) parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    await google().models.generateContent({ model, contents: [...contents, { role: 'model', parts }, { role: 'user', parts: [{ text: 'more' }] }], config });
    return parts.filter((p) => !p.thought).map((p) => p.text ?? '').join('');
  },
  async responses(model, stream) {
    const params = { model, input: [{ role: 'user' as const, content: PROMPT }] as any[], reasoning: { effort: 'low' as const } };
    const first = stream ? await openai().responses.stream(params).finalResponse() : await openai().responses.create(params);
    await openai().responses.create({ ...params, input: [...params.input, ...first.output, { role: 'user', content: 'more' }] });
    return first.output_text;
  },
};

describe.each(Object.keys(TURNS))('%s client, gemini vendor', (style) => {
  test.each([false, true])('stream %s: the text comes back to the vendor with its signature', async (stream) => {
    expect(await TURNS[style](MODEL.gemini, stream)).toBe(ANSWER);
    const [first, second] = gw.sims.gemini.received.map((r) => JSON.parse(r.body.toString()));
    expect(first.generationConfig.thinkingConfig.thinkingBudget).toBeGreaterThan(0);
    const model = second.contents.find((c: any) => c.role === 'model');
    expect(model.parts.map((p: any) => p.text).join('')).toBe(ANSWER);
    expect(model.parts.filter((p: any) => p.thoughtSignature)).toEqual([{ text: expect.any(String), thoughtSignature: signGeminiText(ANSWER) }]);
  });
});
