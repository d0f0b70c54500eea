import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { createTraceSink, type TraceSink } from '../../src/tracing/create-trace-sink.ts';
import { sendChat, type ChatStyle } from '../helpers/send-chat.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { startReceiver } from './start-otlp-receiver.ts';

/** Where each caller style's answer states why the model stopped. */
const REASON_FIELDS: Record<ChatStyle, RegExp> = {
  openai: /"finish_reason":\s*"([^"]+)"/g,
  anthropic: /"stop_reason":\s*"([^"]+)"/g,
  gemini: /"finishReason":\s*"([^"]+)"/g,
};

/** Passthrough in each style, and translated (an OpenAI client of an Anthropic model: canonical reasons are OpenAI's words). */
const CASES: [string, ChatStyle, string][] = [
  ['openai passthrough', 'openai', 'sim-openai-chat'],
  ['anthropic passthrough', 'anthropic', 'sim-anthropic-chat'],
  ['gemini passthrough', 'gemini', 'sim-gemini-chat'],
  ['openai client of an anthropic model (translated)', 'openai', 'claude-sonnet-4-6'],
];

describe('gen_ai.response.finish_reasons', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let sink: TraceSink | undefined;
  let gw: TestGateway;
  const served: UsageEvent[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    gw = await startTestGateway(undefined, { onUsage: [(event) => sink?.record(event)] });
  });
  afterAll(async () => {
    await gw.close();
    receiver.server.close();
  });

  it('are not read while no trace exporter runs (the log line stays as it was)', async () => {
    const event = gw.nextEvent();
    const reply = await sendChat(gw.url, { key: gw.key, model: 'sim-openai-chat', stream: true });
    expect(reply.text).toMatch(/"finish_reason":"\w+"/);
    expect(await event).not.toHaveProperty('finishReasons');
    sink = await createTraceSink({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(sink).toBeDefined();
  });

  for (const [name, style, model] of CASES) {
    for (const stream of [false, true]) {
      it(`are the reasons the client read: ${name}${stream ? ', streamed' : ''}`, async () => {
        const event = gw.nextEvent();
        const reply = await sendChat(gw.url, { style, key: gw.key, model, stream, prompt: 'tell me a rather long story about the sea' });
        expect(reply.status).toBe(200);
        const read = [...reply.text.matchAll(REASON_FIELDS[style])].map((match) => match[1]);
        expect(read.length).toBeGreaterThan(0);
        const got = await event;
        expect(got.finishReasons).toEqual(read);
        served.push(got);
      });
    }
  }

  it('are on each request span, and absent when the answer has none (embeddings)', async () => {
    const event = gw.nextEvent();
    const embedding = await fetch(`${gw.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'no reason to stop' }),
    });
    expect(embedding.status).toBe(200);
    await embedding.text();
    const embedded = await event;
    expect(embedded.finishReasons).toBeUndefined();
    await sink!.close();
    const spans = new Map(receiver.spans.filter((span) => span.kind === 2).map((span) => [span.attributes['gateway.request_id'], span.attributes]));
    expect(served).toHaveLength(CASES.length * 2);
    for (const { requestId, finishReasons } of served) expect(spans.get(requestId)?.['gen_ai.response.finish_reasons']).toEqual(finishReasons);
    expect(spans.get(embedded.requestId)).toBeDefined();
    expect(spans.get(embedded.requestId)).not.toHaveProperty(['gen_ai.response.finish_reasons']);
  });
});
