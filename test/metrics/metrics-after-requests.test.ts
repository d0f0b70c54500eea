import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendChat, type ChatStyle } from '../helpers/send-chat.ts';
import { startAdminGateway, TIGHT_SECRET, type AdminGateway } from '../helpers/start-admin-gateway.ts';
import { readSeries, sumSeries, type Sample } from './read-series.ts';

/** /metrics on the admin listener after requests in each caller style: the right series with the right values. */
let gw: AdminGateway;
beforeAll(async () => {
  gw = await startAdminGateway();
});
afterAll(() => gw.close());

const CHAT: Record<ChatStyle, { model: string; vendor: string; route: string; operation: string }> = {
  openai: { model: 'sim-openai-chat', vendor: 'openai', route: '/v1/chat/completions', operation: 'chat' },
  anthropic: { model: 'sim-anthropic-chat', vendor: 'anthropic', route: '/v1/messages', operation: 'chat' },
  gemini: { model: 'sim-gemini-chat', vendor: 'google', route: '/v1beta/models/{model}:generateContent', operation: 'generate_content' },
};

async function scrape(): Promise<Sample[]> {
  const reply = await gw.getAdmin('/metrics');
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return readSeries(reply.text);
}

describe('/metrics after requests', () => {
  for (const style of ['openai', 'anthropic', 'gemini'] as ChatStyle[]) {
    it(`counts a ${style}-style chat in the GenAI histograms and the request counter, with the vendor's token counts`, async () => {
      const { model, vendor, route, operation } = CHAT[style];
      const before = await scrape();
      const event = gw.nextEvent();
      const reply = await sendChat(gw.url, { style, key: gw.key, model });
      expect(reply.status).toBe(200);
      const { usage } = await event;
      // The vendor received the request (and reported the usage the metrics carry).
      expect(usage.inputTokens).toBeGreaterThan(0);
      expect(usage.estimated).toBeUndefined();
      const after = await scrape();
      const genAi = { gen_ai_operation_name: operation, gen_ai_provider_name: vendor, gen_ai_request_model: model };
      const delta = (name: string, labels: Record<string, string>) => sumSeries(after, name, labels) - sumSeries(before, name, labels);
      expect(delta('gen_ai_server_request_duration_seconds_count', { ...genAi, error_type: '' })).toBe(1);
      expect(delta('gen_ai_server_time_to_first_token_seconds_count', genAi)).toBe(1);
      expect(delta('gen_ai_client_token_usage_sum', { ...genAi, gen_ai_token_type: 'input' })).toBe(usage.inputTokens);
      expect(delta('gen_ai_client_token_usage_sum', { ...genAi, gen_ai_token_type: 'output' })).toBe(usage.outputTokens);
      expect(delta('gateway_requests_total', { style, route, status: '200', key: 'simulator' })).toBe(1);
      expect(delta('gateway_overhead_seconds_count', { style })).toBe(1);
      expect(delta('gateway_attempts_total', { outcome: 'ok' })).toBe(1);
      // No client key ever appears in the metrics, only key names.
      expect(after.some((s) => Object.values(s.labels).includes(gw.key))).toBe(false);
    });
  }

  it('labels an unknown model `unknown` and a failed request with its error type (cardinality bounded by the config)', async () => {
    const before = await scrape();
    const made = `made-up-model-${Date.now()}`;
    const received = gw.sims.openai.received.length;
    const reply = await sendChat(gw.url, { key: gw.key, model: made });
    expect(reply.status).toBe(404);
    expect(gw.sims.openai.received.length).toBe(received);
    const after = await scrape();
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes('made-up-model')))).toBe(false);
    const labels = { gen_ai_request_model: 'unknown', error_type: 'model_not_found' };
    expect(sumSeries(after, 'gen_ai_server_request_duration_seconds_count', labels) - sumSeries(before, 'gen_ai_server_request_duration_seconds_count', labels)).toBe(1);
  });

  it('puts an unmatched path under the route `unmatched`, never the raw path', async () => {
    const response = await fetch(`${gw.url}/v1/some-secret-looking-path-123`, { method: 'POST' });
    expect(response.status).toBe(404);
    await response.text();
    const after = await scrape();
    expect(sumSeries(after, 'gateway_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes('some-secret')))).toBe(false);
  });

  it('counts a limiter refusal as a rejection of the key, and the vendor never sees it', async () => {
    const before = await scrape();
    const received = gw.sims.openai.received.length;
    const first = await sendChat(gw.url, { key: TIGHT_SECRET, model: 'sim-openai-chat' });
    const second = await sendChat(gw.url, { key: TIGHT_SECRET, model: 'sim-openai-chat' });
    expect([first.status, second.status]).toEqual([200, 429]);
    expect(gw.sims.openai.received.length).toBe(received + 1);
    const after = await scrape();
    const labels = { reason: 'rate_limit_exceeded', key: 'tight' };
    expect(sumSeries(after, 'gateway_rejections_total', labels) - sumSeries(before, 'gateway_rejections_total', labels)).toBe(1);
  });

  it('shows the gauges read at scrape time: streams and requests in flight, pool queues, config generation', async () => {
    const samples = await scrape();
    expect(sumSeries(samples, 'gateway_streams_in_flight')).toBe(0);
    expect(sumSeries(samples, 'gateway_config_generation')).toBe(1);
    expect(samples.some((s) => s.name === 'gateway_vendor_pool_queued' && s.labels.vendor === 'openai')).toBe(true);
  });
});
