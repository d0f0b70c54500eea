import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { defineMetrics } from '../../src/metrics/define-metrics.ts';
import { RESPONSE_MODELS_PER_TARGET } from '../../src/metrics/labels.ts';
import { createUsageRecorder } from '../../src/metrics/record-usage.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { readSeries, sumSeries } from './read-series.ts';

/** The metrics receiver, fed usage events as the runtime and the other parts of the gateway fill them. */
function setUp() {
  const registry = new Registry();
  const record = createUsageRecorder(defineMetrics(registry), (model) => model === 'chat-model');
  const read = async () => readSeries(await registry.metrics());
  return { record, read };
}

function defineEvent(overrides: Partial<UsageEvent> & Record<string, unknown> = {}): UsageEvent {
  return {
    requestId: 'req-1',
    key: 'team-a',
    model: 'chat-model',
    vendor: 'openai',
    target: 'openai/gpt-x',
    op: 'chat',
    style: 'openai',
    method: 'POST',
    path: '/v1/chat/completions',
    route: '/v1/chat/completions',
    pid: 1,
    status: 200,
    ttfbMs: 100,
    durationMs: 1100,
    overheadMs: 2,
    vendorCalls: 1,
    attempts: 1,
    usage: { inputTokens: 10, outputTokens: 11 },
    ...overrides,
  } as UsageEvent;
}

describe('the usage recorder', () => {
  it('records the extended token types, time per output token and spend when the event carries them', async () => {
    const { record, read } = setUp();
    record(
      defineEvent({
        usage: { inputTokens: 10, outputTokens: 11, cachedInputTokens: 4, cacheCreationInputTokens: 3, reasoningTokens: 5 } as UsageEvent['usage'],
        costUsd: 0.25,
      }),
    );
    const samples = await read();
    for (const [type, count] of [['input', 10], ['output', 11], ['cached_input', 4], ['cache_creation_input', 3], ['reasoning', 5]] as const) {
      expect(sumSeries(samples, 'gen_ai_client_token_usage_sum', { gen_ai_token_type: type, gen_ai_response_model: 'gpt-x' })).toBe(count);
    }
    // (1100 - 100) ms over the 10 tokens after the first.
    expect(sumSeries(samples, 'gen_ai_server_time_per_output_token_seconds_sum')).toBeCloseTo(0.1);
    expect(sumSeries(samples, 'gateway_spend_usd_total', { key: 'team-a', model: 'chat-model' })).toBe(0.25);
  });

  it('counts attempts per target, fallbacks from the targets left, and cooldown skips', async () => {
    const { record, read } = setUp();
    record(
      defineEvent({
        target: 'b/two',
        attempts: 3,
        failedTargets: ['a/one', 'a/one'],
        coolingTargets: ['c/three'],
      }),
    );
    const samples = await read();
    expect(sumSeries(samples, 'gateway_attempts_total', { target: 'a/one', outcome: 'failed' })).toBe(2);
    expect(sumSeries(samples, 'gateway_attempts_total', { target: 'b/two', outcome: 'ok' })).toBe(1);
    expect(sumSeries(samples, 'gateway_fallbacks_total', { target: 'a/one' })).toBe(1);
    expect(sumSeries(samples, 'gateway_cooldown_skips_total', { target: 'c/three' })).toBe(1);
  });

  it('keeps label values bounded: models outside the config are `unknown`, response models capped per target', async () => {
    const { record, read } = setUp();
    record(defineEvent({ model: 'client-invented', status: 404, error: 'model_not_found' }));
    for (let i = 0; i < RESPONSE_MODELS_PER_TARGET + 5; i++) record(defineEvent({ responseModel: `snapshot-${i}` } as Partial<UsageEvent>));
    const samples = await read();
    expect(sumSeries(samples, 'gen_ai_server_request_duration_seconds_count', { gen_ai_request_model: 'unknown', error_type: 'model_not_found' })).toBe(1);
    const models = new Set(samples.filter((s) => s.name === 'gen_ai_server_request_duration_seconds_count').map((s) => s.labels.gen_ai_response_model));
    // The first event's `gpt-x` took one of the places: 19 snapshots pass, the 6 later ones are `other`.
    expect(models.size).toBe(RESPONSE_MODELS_PER_TARGET + 1);
    expect(sumSeries(samples, 'gen_ai_server_request_duration_seconds_count', { gen_ai_response_model: 'other' })).toBe(6);
    expect(samples.some((s) => Object.values(s.labels).includes('client-invented'))).toBe(false);
  });

  it("counts only the gateway's own 429s as rejections, not a vendor's", async () => {
    const { record, read } = setUp();
    record(defineEvent({ status: 429, error: 'rate_limit_exceeded' }));
    record(defineEvent({ status: 429, error: 'budget_exceeded' }));
    record(defineEvent({ status: 429, error: 'upstream_rate_limited' }));
    const samples = await read();
    expect(sumSeries(samples, 'gateway_rejections_total')).toBe(2);
    expect(sumSeries(samples, 'gateway_rejections_total', { reason: 'budget_exceeded', key: 'team-a' })).toBe(1);
  });
});
