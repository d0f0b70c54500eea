/**
 * Drivers of the reasoning tool-loop tests (not a test file): each official SDK asks with reasoning on,
 * gets a tool call, appends the assistant turn exactly as it received it, answers the call, and reads
 * the final answer. Each returns the thinking text the client saw and the final text.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Type, type Content } from '@google/genai';
import type OpenAI from 'openai';
import { anthropic, google, openai, RESULT, WEATHER_SCHEMA } from './translation-drivers.ts';

/** What a client saw: its thinking text, the reasoning tokens in its usage, the final answer. */
export interface LoopResult {
  thinking: string;
  reasoningTokens: number | undefined;
  final: string;
}

const OPENAI_TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', parameters: WEATHER_SCHEMA } }];
const PROMPT = 'What is the weather in Paris?';

/** A tool loop with reasoning on, per client style. */
export const LOOPS: Record<string, (model: string, stream: boolean) => Promise<LoopResult>> = {
  async 'chat-completions'(model, stream) {
    const messages: any[] = [{ role: 'user', content: PROMPT }];
    const params = { model, messages, tools: OPENAI_TOOLS, reasoning_effort: 'low' as const };
    let thinking = '';
    let completion: OpenAI.ChatCompletion;
    if (stream) {
      const runner = openai().chat.completions.stream({ ...params, stream_options: { include_usage: true } });
      runner.on('chunk', (chunk: any) => { thinking += chunk.choices[0]?.delta?.reasoning_content ?? ''; });
      completion = await runner.finalChatCompletion();
    } else {
      completion = await openai().chat.completions.create(params);
      thinking = (completion.choices[0].message as any).reasoning_content ?? '';
    }
    const message = completion.choices[0].message;
    const follow = [...messages, message, ...message.tool_calls!.map((c) => ({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(RESULT) }))];
    const final = await openai().chat.completions.create({ ...params, messages: follow });
    return { thinking, reasoningTokens: completion.usage?.completion_tokens_details?.reasoning_tokens, final: final.choices[0].message.content ?? '' };
  },
  async messages(model, stream) {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: PROMPT }];
    const params = { model, max_tokens: 4000, messages, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: [{ name: 'get_weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema }] };
    const first = stream ? await anthropic().messages.stream(params).finalMessage() : await anthropic().messages.create(params);
    const thinking = first.content.map((b) => (b.type === 'thinking' ? b.thinking : '')).join('');
    const results = first.content.filter((b) => b.type === 'tool_use').map((b: any) => ({ type: 'tool_result' as const, tool_use_id: b.id, content: JSON.stringify(RESULT) }));
    const final = await anthropic().messages.create({ ...params, messages: [...messages, { role: 'assistant', content: first.content }, { role: 'user', content: results }] });
    return { thinking, reasoningTokens: (first.usage as any).output_tokens_details?.thinking_tokens, final: final.content.map((b) => (b.type === 'text' ? b.text : '')).join('') };
  },
  async 'generate-content'(model, stream) {
    const contents: Content[] = [{ role: 'user', parts: [{ text: PROMPT }] }];
    const config = {
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] } }] }],
    };
    const parts: any[] = [];
    let thoughts: number | undefined;
    const chunks = stream ? await google().models.generateContentStream({ model, contents, config }) : [await google().models.generateContent({ model, contents, config })];
    for await (const chunk of chunks) {
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      thoughts = chunk.usageMetadata?.thoughtsTokenCount ?? thoughts;
    }
    const thinking = parts.filter((p) => p.thought).map((p) => p.text ?? '').join('');
    const calls = parts.filter((p) => p.functionCall).map((p) => p.functionCall);
    const answer: Content = { role: 'user', parts: calls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: RESULT } })) };
    const final = await google().models.generateContent({ model, contents: [...contents, { role: 'model', parts }, answer], config });
    return { thinking, reasoningTokens: thoughts, final: final.text ?? '' };
  },
  async responses(model, stream) {
    const input: any[] = [{ role: 'user', content: PROMPT }];
    const params = { model, input, reasoning: { effort: 'low' as const, summary: 'auto' as const }, tools: [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER_SCHEMA, strict: false }] };
    const first = stream ? await openai().responses.stream(params).finalResponse() : await openai().responses.create(params);
    const thinking = first.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : [])).join('');
    const calls = first.output.filter((item) => item.type === 'function_call');
    const follow = [...input, ...first.output, ...calls.map((c: any) => ({ type: 'function_call_output', call_id: c.call_id, output: JSON.stringify(RESULT) }))];
    const final = await openai().responses.create({ ...params, input: follow });
    return { thinking, reasoningTokens: first.usage?.output_tokens_details.reasoning_tokens, final: final.output_text };
  },
};
