/**
 * Drivers of the cross-protocol chat tests (test/e2e/translation-*.test.ts): each official SDK against
 * each protocol's simulated vendor, through the running gateway (translation for the six mixed pairs,
 * passthrough for the three native ones), and readers of what the vendor received.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type, type Content } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

export type Vendor = 'openai' | 'anthropic' | 'gemini';
export const VENDORS: Vendor[] = ['openai', 'anthropic', 'gemini'];
export const MODEL: Record<Vendor, string> = { openai: 'sim-openai-chat', anthropic: 'sim-anthropic-chat', gemini: 'sim-gemini-chat' };
export const UPSTREAM: Record<Vendor, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-2.5-flash' };
export const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] };
export const RESULT = { temp_c: 12, sky: 'rain' };

/** The gateway of the file's tests (a live binding, set by {@link useTranslationGateway}). */
export let gw: TestGateway;

/** Starts the gateway before the file's tests, resets the vendors before each, and closes it after. */
export function useTranslationGateway(): void {
  beforeAll(async () => {
    gw = await startTestGateway((config: CompiledConfig) => ({
      ...config,
      models: { ...config.models, 'sim-anthropic-strict': { ...config.models['sim-anthropic-chat'], id: 'sim-anthropic-strict', chat: { defaultMaxTokens: 77, strict: true } } },
    }));
  });
  afterAll(() => gw.close());
  beforeEach(() => {
    for (const vendor of VENDORS) gw.sims[vendor].reset();
  });
}

/** The last request a simulated vendor received, read in that vendor's protocol. */
export function readVendorTurn(vendor: Vendor) {
  const received = gw.sims[vendor].received.at(-1)!;
  const body = JSON.parse(received.body.toString());
  if (vendor === 'openai') {
    const last = body.messages.at(-1);
    return {
      url: received.url, body, model: body.model,
      streamed: body.stream === true && body.stream_options?.include_usage === true,
      text: typeof last.content === 'string' ? last.content : last.content?.map((p: any) => p.text).join(''),
      toolResults: body.messages.filter((m: any) => m.role === 'tool').map((m: any) => ({ id: m.tool_call_id, value: JSON.parse(m.content) })),
    };
  }
  if (vendor === 'anthropic') {
    const blocks = body.messages.at(-1).content;
    const list = typeof blocks === 'string' ? [{ type: 'text', text: blocks }] : blocks;
    return {
      url: received.url, body, model: body.model, streamed: body.stream === true,
      text: list.filter((b: any) => b.type === 'text').map((b: any) => b.text).join(''),
      toolResults: list.filter((b: any) => b.type === 'tool_result').map((b: any) => ({ id: b.tool_use_id, value: JSON.parse(b.content) })),
    };
  }
  const parts = body.contents.at(-1).parts;
  return {
    url: received.url, body, model: /models\/([^:]+):/.exec(received.url)![1], streamed: received.url.endsWith(':streamGenerateContent?alt=sse'),
    text: parts.filter((p: any) => typeof p.text === 'string').map((p: any) => p.text).join(''),
    toolResults: parts.filter((p: any) => p.functionResponse).map((p: any) => ({ name: p.functionResponse.name, value: p.functionResponse.response })),
  };
}

export interface Answer {
  text: string;
  finish: string | null | undefined;
  input?: number;
  output?: number;
  chunks?: number;
}
export interface ToolCall {
  id?: string;
  name: string;
  args: unknown;
}
export interface ToolAnswer extends Answer {
  calls: ToolCall[];
  answer(result: Record<string, unknown>): Promise<Answer>;
}
export interface Driver {
  sdk: string;
  stop: string;
  toolStop: string;
  create(model: string, prompt: string): Promise<Answer>;
  stream(model: string, prompt: string): Promise<Answer>;
  callTool(model: string, prompt: string, stream: boolean): Promise<ToolAnswer>;
}

export const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
export const anthropic = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
export const google = () => new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url, retryOptions: { attempts: 1 } } as never });

const OPENAI_TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather of a city', parameters: WEATHER_SCHEMA } }];
const ANTHROPIC_TOOLS = [{ name: 'get_weather', description: 'Weather of a city', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema }];
const GEMINI_TOOLS = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING, description: 'City name' } }, required: ['city'] } }] }];

export const DRIVERS: Driver[] = [
  {
    sdk: 'openai', stop: 'stop', toolStop: 'tool_calls',
    async create(model, prompt) {
      const r = await openai().chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] });
      return { text: r.choices[0].message.content ?? '', finish: r.choices[0].finish_reason, input: r.usage?.prompt_tokens, output: r.usage?.completion_tokens };
    },
    async stream(model, prompt) {
      const s = await openai().chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], stream: true, stream_options: { include_usage: true } });
      const answer: Answer = { text: '', finish: undefined, chunks: 0 };
      for await (const chunk of s) {
        answer.chunks! += 1;
        answer.text += chunk.choices[0]?.delta?.content ?? '';
        answer.finish = chunk.choices[0]?.finish_reason ?? answer.finish;
        if (chunk.usage) [answer.input, answer.output] = [chunk.usage.prompt_tokens, chunk.usage.completion_tokens];
      }
      return answer;
    },
    async callTool(model, prompt, stream) {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
      const params = { model, messages, tools: OPENAI_TOOLS };
      const completion = stream ? await openai().chat.completions.stream(params).finalChatCompletion() : await openai().chat.completions.create(params);
      const message = completion.choices[0].message;
      const calls = (message.tool_calls ?? []).map((c: any) => ({ id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) }));
      return {
        text: message.content ?? '', finish: completion.choices[0].finish_reason, calls,
        async answer(result) {
          const follow: OpenAI.ChatCompletionMessageParam[] = [
            ...messages,
            { role: 'assistant', content: message.content, tool_calls: message.tool_calls },
            ...calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: JSON.stringify(result) })),
          ];
          const r = await openai().chat.completions.create({ model, messages: follow, tools: OPENAI_TOOLS });
          return { text: r.choices[0].message.content ?? '', finish: r.choices[0].finish_reason };
        },
      };
    },
  },
  {
    sdk: '@anthropic-ai/sdk', stop: 'end_turn', toolStop: 'tool_use',
    async create(model, prompt) {
      const m = await anthropic().messages.create({ model, max_tokens: 200, messages: [{ role: 'user', content: prompt }] });
      return { text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), finish: m.stop_reason, input: m.usage.input_tokens, output: m.usage.output_tokens };
    },
    async stream(model, prompt) {
      const s = anthropic().messages.stream({ model, max_tokens: 200, messages: [{ role: 'user', content: prompt }] });
      let chunks = 0;
      s.on('text', () => { chunks += 1; });
      const m = await s.finalMessage();
      return { text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), finish: m.stop_reason, input: m.usage.input_tokens, output: m.usage.output_tokens, chunks };
    },
    async callTool(model, prompt, stream) {
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: prompt }];
      const params = { model, max_tokens: 200, messages, tools: ANTHROPIC_TOOLS };
      const m = stream ? await anthropic().messages.stream(params).finalMessage() : await anthropic().messages.create(params);
      const calls = m.content.filter((b) => b.type === 'tool_use').map((b: any) => ({ id: b.id, name: b.name, args: b.input }));
      return {
        text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), finish: m.stop_reason, calls,
        async answer(result) {
          const r = await anthropic().messages.create({
            ...params,
            messages: [...messages, { role: 'assistant', content: m.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: JSON.stringify(result) })) }],
          });
          return { text: r.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), finish: r.stop_reason };
        },
      };
    },
  },
  {
    sdk: '@google/genai', stop: 'STOP', toolStop: 'STOP',
    async create(model, prompt) {
      const r = await google().models.generateContent({ model, contents: prompt });
      return { text: r.text ?? '', finish: r.candidates?.[0]?.finishReason, input: r.usageMetadata?.promptTokenCount, output: r.usageMetadata?.candidatesTokenCount };
    },
    async stream(model, prompt) {
      const answer: Answer = { text: '', finish: undefined, chunks: 0 };
      for await (const chunk of await google().models.generateContentStream({ model, contents: prompt })) {
        answer.chunks! += 1;
        answer.text += chunk.text ?? '';
        answer.finish = chunk.candidates?.[0]?.finishReason ?? answer.finish;
        if (chunk.usageMetadata) [answer.input, answer.output] = [chunk.usageMetadata.promptTokenCount, chunk.usageMetadata.candidatesTokenCount];
      }
      return answer;
    },
    async callTool(model, prompt, stream) {
      const first: Content = { role: 'user', parts: [{ text: prompt }] };
      const request = { model, contents: [first], config: { tools: GEMINI_TOOLS } };
      const parts: any[] = [];
      let finish: string | undefined;
      if (stream) {
        for await (const chunk of await google().models.generateContentStream(request)) {
          parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
          finish = chunk.candidates?.[0]?.finishReason ?? finish;
        }
      } else {
        const r = await google().models.generateContent(request);
        parts.push(...(r.candidates?.[0]?.content?.parts ?? []));
        finish = r.candidates?.[0]?.finishReason;
      }
      const calls = parts.filter((p) => p.functionCall).map((p) => ({ id: p.functionCall.id, name: p.functionCall.name, args: p.functionCall.args }));
      return {
        text: parts.map((p) => p.text ?? '').join(''), finish, calls,
        async answer(result) {
          const reply: Content = { role: 'user', parts: calls.map((c) => ({ functionResponse: { ...(c.id ? { id: c.id } : {}), name: c.name, response: result } })) };
          const r = await google().models.generateContent({ ...request, contents: [first, { role: 'model', parts }, reply] });
          return { text: r.text ?? '', finish: r.candidates?.[0]?.finishReason };
        },
      };
    },
  },
];

export const PAIRS = DRIVERS.flatMap((driver) => VENDORS.map((vendor) => ({ driver, vendor, label: `${driver.sdk} -> ${vendor} vendor` })));
