/**
 * Cross-protocol chat end to end: each official SDK against each protocol's simulated vendor, through
 * the running gateway (translation for the six mixed pairs, passthrough for the three native ones).
 * Every test checks what the SDK parsed and what the vendor received.
 */
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI, Type, type Content } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

type Vendor = 'openai' | 'anthropic' | 'gemini';
const VENDORS: Vendor[] = ['openai', 'anthropic', 'gemini'];
const MODEL: Record<Vendor, string> = { openai: 'sim-openai-chat', anthropic: 'sim-anthropic-chat', gemini: 'sim-gemini-chat' };
const UPSTREAM: Record<Vendor, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-2.5-flash' };
const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] };
const RESULT = { temp_c: 12, sky: 'rain' };

let gw: TestGateway;
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

/** The last request a simulated vendor received, read in that vendor's protocol. */
function readVendorTurn(vendor: Vendor) {
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

interface Answer {
  text: string;
  finish: string | null | undefined;
  input?: number;
  output?: number;
  chunks?: number;
}
interface ToolCall {
  id?: string;
  name: string;
  args: unknown;
}
interface ToolAnswer extends Answer {
  calls: ToolCall[];
  answer(result: Record<string, unknown>): Promise<Answer>;
}
interface Driver {
  sdk: string;
  stop: string;
  toolStop: string;
  create(model: string, prompt: string): Promise<Answer>;
  stream(model: string, prompt: string): Promise<Answer>;
  callTool(model: string, prompt: string, stream: boolean): Promise<ToolAnswer>;
}

const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url, retryOptions: { attempts: 1 } } as never });

const OPENAI_TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather of a city', parameters: WEATHER_SCHEMA } }];
const ANTHROPIC_TOOLS = [{ name: 'get_weather', description: 'Weather of a city', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema }];
const GEMINI_TOOLS = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING, description: 'City name' } }, required: ['city'] } }] }];

const DRIVERS: Driver[] = [
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

const PAIRS = DRIVERS.flatMap((driver) => VENDORS.map((vendor) => ({ driver, vendor, label: `${driver.sdk} -> ${vendor} vendor` })));

describe.each(PAIRS)('$label', ({ driver, vendor }) => {
  const model = MODEL[vendor];

  test('non-stream: the SDK parses text, finish and usage; the vendor gets its own protocol and the upstream model', async () => {
    const event = gw.nextEvent();
    const answer = await driver.create(model, 'hello there');
    expect(answer).toMatchObject({ text: 'Echo: hello there', finish: driver.stop, input: 2, output: 3 });
    const turn = readVendorTurn(vendor);
    expect(turn).toMatchObject({ model: UPSTREAM[vendor], text: 'hello there', streamed: false });
    if (vendor === 'anthropic' && driver.sdk !== '@anthropic-ai/sdk') expect(turn.body.max_tokens).toBe(1024);
    expect((await event).usage).toMatchObject({ inputTokens: 2, outputTokens: 3, totalTokens: 5 });
  });

  test('stream: the SDK reads incremental text, finish and usage; the vendor was asked to stream', async () => {
    const event = gw.nextEvent();
    const answer = await driver.stream(model, 'stream these four words');
    expect(answer).toMatchObject({ text: 'Echo: stream these four words', finish: driver.stop, input: 4, output: 5 });
    expect(answer.chunks).toBeGreaterThan(2);
    expect(readVendorTurn(vendor)).toMatchObject({ model: UPSTREAM[vendor], text: 'stream these four words', streamed: true });
    expect((await event).usage).toMatchObject({ inputTokens: 4, outputTokens: 5, totalTokens: 9 });
  });

  test.each([false, true])('tool round trip (first turn streamed: %s): call name and arguments, then the tool result reaches the vendor', async (stream) => {
    const call = await driver.callTool(model, 'Paris', stream);
    expect(call.finish).toBe(driver.toolStop);
    expect(call.calls.map(({ name, args }) => ({ name, args }))).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(readVendorTurn(vendor).streamed).toBe(stream);
    const final = await call.answer(RESULT);
    expect(final).toEqual({ text: `Echo: ${JSON.stringify(RESULT)}`, finish: driver.stop });
    const turn = readVendorTurn(vendor);
    if (vendor === 'gemini') expect(turn.toolResults).toEqual([{ name: 'get_weather', value: RESULT }]);
    else expect(turn.toolResults).toEqual([{ id: call.calls[0].id, value: RESULT }]);
  });

  test.each([2, 5])('a vendor stream cut after %i events makes the SDK raise instead of ending quietly', async (afterEvents) => {
    gw.sims[vendor].failNext({ kind: 'reset-mid-stream', afterEvents });
    const error: any = await driver.stream(model, 'this stream will be cut before its last words arrive').catch((e: unknown) => e);
    // The same cut has one code on the passthrough path and another on the translated one (reported).
    const passthrough = driver.sdk.includes(vendor === 'gemini' ? 'google' : vendor);
    const [code, message] = passthrough
      ? ['upstream_stream_failed', 'The vendor stream ended with an error.']
      : ['upstream_stream_cut', 'The vendor stream broke off before the answer was complete.'];
    if (driver.sdk === 'openai') {
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error.error).toEqual({ message, type: 'server_error', param: null, code });
    } else if (driver.sdk === '@anthropic-ai/sdk') {
      expect(error).toBeInstanceOf(Anthropic.APIError);
      expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error', message } });
    } else {
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(502);
      expect(error.message).toContain(JSON.stringify({ error: { code: 502, message, status: 'UNAVAILABLE' } }));
    }
  });

  test('a rate-limited vendor answer reaches the SDK as a 429 in its own error shape', async () => {
    gw.sims[vendor].failNext({ kind: 'status', status: 429 });
    await expect(driver.create(model, 'too many')).rejects.toMatchObject({ status: 429 });
  });
});

describe('vendor failures on translated calls', () => {
  test('a vendor credential failure is a 502 that does not echo the vendor message', async () => {
    gw.sims.anthropic.failNext({ kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key sk-ant-abcd' } } });
    const error: any = await DRIVERS[0].create(MODEL.anthropic, 'hi').catch((e) => e);
    expect(error.status).toBe(502);
    expect(error.error).toMatchObject({ code: 'upstream_auth_failed' });
    expect(JSON.stringify(error.error)).not.toContain('sk-ant');
  });

  test('a vendor error event inside the stream reaches the Anthropic SDK as its own error', async () => {
    gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 1 });
    const error: any = await DRIVERS[1].stream(MODEL.openai, 'cut early').catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  test('a vendor answering garbage is a 502', async () => {
    gw.sims.gemini.failNext({ kind: 'garbage' });
    await expect(DRIVERS[1].create(MODEL.gemini, 'hi')).rejects.toMatchObject({ status: 502 });
  });
});

describe('responses-style and legacy completions requests on other protocols', () => {
  test.each(['anthropic', 'gemini'] as const)('responses.create on a %s vendor: output text and usage', async (vendor) => {
    const r = await openai().responses.create({ model: MODEL[vendor], instructions: 'Be brief.', input: 'hello responses' });
    expect(r.output_text).toBe('Echo: hello responses');
    expect(r.status).toBe('completed');
    expect(r.usage).toMatchObject({ output_tokens: 3 });
    const turn = readVendorTurn(vendor);
    expect(turn.text).toBe('hello responses');
    expect(vendor === 'anthropic' ? turn.body.system : turn.body.systemInstruction.parts[0].text).toBe('Be brief.');
  });

  test.each(['anthropic', 'gemini'] as const)('a streamed response on a %s vendor ends with response.completed', async (vendor) => {
    const stream = openai().responses.stream({ model: MODEL[vendor], input: 'stream responses' });
    const types = new Set<string>();
    for await (const event of stream) types.add(event.type);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Echo: stream responses');
    expect([...types]).toEqual(expect.arrayContaining(['response.created', 'response.output_text.delta', 'response.completed']));
  });

  test.each(['anthropic', 'gemini'] as const)('a responses function call round trip on a %s vendor', async (vendor) => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER_SCHEMA, strict: false }];
    const first = await openai().responses.create({ model: MODEL[vendor], input: 'Paris', tools });
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect([call.name, JSON.parse(call.arguments)]).toEqual(['get_weather', { city: 'Paris' }]);
    const second = await openai().responses.create({
      model: MODEL[vendor],
      tools,
      input: [{ role: 'user', content: 'Paris' }, ...first.output as OpenAI.Responses.ResponseInputItem[], { type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(RESULT) }],
    });
    expect(second.output_text).toBe(`Echo: ${JSON.stringify(RESULT)}`);
  });

  test('previous_response_id on a vendor without response state is a 400 naming the field', async () => {
    const error: any = await openai().responses.create({ model: MODEL.anthropic, input: 'x', previous_response_id: 'resp_1' }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ param: 'previous_response_id' });
    expect(gw.sims.anthropic.received).toEqual([]);
  });

  test.each(['anthropic', 'gemini'] as const)('completions.create on a %s vendor, whole and streamed', async (vendor) => {
    const whole = await openai().completions.create({ model: MODEL[vendor], prompt: 'legacy prompt' });
    expect(whole.choices[0]).toMatchObject({ text: 'Echo: legacy prompt', finish_reason: 'stop' });
    expect(whole.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3 });
    let text = '';
    for await (const chunk of await openai().completions.create({ model: MODEL[vendor], prompt: 'legacy stream', stream: true })) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('Echo: legacy stream');
  });
});

describe('untranslatable fields', () => {
  test('are dropped and reported in a header on a lenient model', async () => {
    const { data, response } = await openai().chat.completions.create({ model: MODEL.anthropic, messages: [{ role: 'user', content: 'hi' }], logprobs: true, seed: 3 }).withResponse();
    expect(data.choices[0].message.content).toBe('Echo: hi');
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('logprobs, seed');
    expect(readVendorTurn('anthropic').body).not.toHaveProperty('seed');
  });

  test('are rejected with a 400 naming the field on a strict model, and the default max tokens applies', async () => {
    const error: any = await openai().chat.completions.create({ model: 'sim-anthropic-strict', messages: [{ role: 'user', content: 'hi' }], seed: 3 }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'untranslatable_field', param: 'seed' });
    expect(gw.sims.anthropic.received).toEqual([]);
    await openai().chat.completions.create({ model: 'sim-anthropic-strict', messages: [{ role: 'user', content: 'hi' }] });
    expect(readVendorTurn('anthropic').body.max_tokens).toBe(77);
  });
});
