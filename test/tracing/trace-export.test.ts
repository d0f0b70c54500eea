import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTraceSink, type TraceSink } from '../../src/tracing/create-trace-sink.ts';
import { readReceivedModels, sendChat } from '../helpers/send-chat.ts';
import { definePolicy, defineModel, defineTarget } from '../helpers/start-policy-gateway.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { startReceiver } from './start-otlp-receiver.ts';

describe('traces with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let sink: TraceSink;
  let gw: TestGateway;
  beforeAll(async () => {
    receiver = await startReceiver();
    sink = (await createTraceSink({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }))!;
    gw = await startTestGateway(
      (config) => ({
        ...config,
        models: {
          ...config.models,
          'traced-fallback': defineModel('traced-fallback', [defineTarget('openai', 'first-up')], [defineTarget('openai', 'second-up')], definePolicy()),
        },
      }),
      { onUsage: [sink.record] },
    );
  });
  afterAll(async () => {
    await gw.close();
    receiver.server.close();
  });

  it('is off without the variable (no OpenTelemetry loaded)', async () => {
    expect(await createTraceSink({})).toBeUndefined();
  });

  it('exports one server span per request and one client span per vendor attempt, with the GenAI attributes', async () => {
    expect((await sendChat(gw.url, { style: 'anthropic', key: gw.key, model: 'sim-anthropic-chat' })).status).toBe(200);
    gw.sims.openai.failNext({ kind: 'status', status: 503 });
    expect((await sendChat(gw.url, { key: gw.key, model: 'traced-fallback' })).status).toBe(200);
    expect(readReceivedModels(gw.sims.openai.received)).toEqual(['first-up', 'second-up']);
    await sink.close();
    expect(receiver.paths[0]).toMatch(/^POST \/v1\/traces application\/json/);
    const servers = receiver.spans.filter((span) => span.kind === 2);
    expect(servers.map((span) => span.name)).toEqual(['chat sim-anthropic-chat', 'chat traced-fallback']);
    const [anthropic, fallback] = servers;
    expect(anthropic.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'sim-anthropic-chat',
      'gen_ai.response.model': 'claude-sonnet-4-6',
      'http.response.status_code': 200,
      'http.route': '/v1/messages',
    });
    expect(anthropic.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(anthropic.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    const attempts = receiver.spans.filter((span) => span.kind === 3 && span.parentSpanId === fallback.spanId);
    expect(attempts.map((span) => [span.attributes['gen_ai.request.model'], span.attributes['error.type']])).toEqual([
      ['first-up', 'attempt_failed'],
      ['second-up', undefined],
    ]);
    expect(attempts.every((span) => span.traceId === fallback.traceId)).toBe(true);
    expect(JSON.stringify(receiver.spans)).not.toContain(gw.key);
  });
});
