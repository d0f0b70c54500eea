import fc from 'fast-check';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { defineMetrics } from '../../src/metrics/define-metrics.ts';
import { getOperationName } from '../../src/metrics/labels.ts';
import { createUsageRecorder } from '../../src/metrics/record-usage.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { readSeries, sumSeries } from './read-series.ts';

/** The label values an event may vary in, a few of each, so that runs of equal and differing events mix. */
const eventFields = fc.record({
  target: fc.constantFrom('openai/gpt-x', 'anthropic/claude-y', undefined),
  status: fc.constantFrom(200, 429, 502),
  key: fc.constantFrom('team-a', 'team-b', undefined),
  route: fc.constantFrom('/v1/chat/completions', '/v1/messages'),
  style: fc.constantFrom('openai', 'anthropic'),
  model: fc.constantFrom('chat-model', 'other-model'),
  error: fc.constantFrom(undefined, 'rate_limit_exceeded', 'upstream_error'),
  attempts: fc.constantFrom(0, 1),
  vendor: fc.constantFrom('openai', 'anthropic'),
  op: fc.constantFrom('chat', 'embeddings'),
  responseModel: fc.constantFrom(undefined, 'served-model'),
});

const FIELDS = ['target', 'status', 'key', 'route', 'style', 'model', 'error', 'attempts', 'vendor', 'op', 'responseModel'] as const;

/** The response model label of an event: the one it names, else its target's upstream. */
const readResponseModel = (e: { target?: string; responseModel?: string }) => e.responseModel ?? (e.target ?? '').slice((e.target ?? '').indexOf('/') + 1);

function defineEvent(fields: Partial<UsageEvent>): UsageEvent {
  return {
    requestId: 'req',
    method: 'POST',
    path: '/v1/chat/completions',
    pid: 1,
    durationMs: 1000,
    overheadMs: 1,
    vendorCalls: 1,
    usage: { inputTokens: 1, outputTokens: 1 },
    ...fields,
  } as UsageEvent;
}

describe('the usage recorder finding each request its series', () => {
  it('counts every request in the series of its own labels, whatever the request before it on the same target had', async () => {
    await fc.assert(
      // Each event is the one before it with one label changed (or none), so runs of near-equal events on a target are common.
      fc.asyncProperty(eventFields, fc.array(fc.tuple(fc.constantFrom(...FIELDS), eventFields), { maxLength: 40 }), async (first, changes) => {
        const events = [first];
        for (const [field, source] of changes) events.push({ ...events[events.length - 1], [field]: source[field] });
        const registry = new Registry();
        const record = createUsageRecorder(defineMetrics(registry), (model) => model === 'chat-model');
        for (const fields of events) record(defineEvent(fields as Partial<UsageEvent>));
        const samples = readSeries(await registry.metrics());
        for (const e of events) {
          const labels = { style: e.style, route: e.route, status: String(e.status), key: e.key ?? '' };
          const same = events.filter((o) => o.style === e.style && o.route === e.route && o.status === e.status && (o.key ?? '') === (e.key ?? ''));
          expect(sumSeries(samples, 'gateway_requests_total', labels)).toBe(same.length);
          const genAi = {
            gen_ai_operation_name: getOperationName(e.op),
            gen_ai_provider_name: e.vendor,
            gen_ai_request_model: e.model === 'chat-model' ? e.model : 'unknown',
            gen_ai_response_model: readResponseModel(e),
            error_type: e.error ?? '',
          };
          const sameGenAi = events.filter(
            (o) => getOperationName(o.op) === getOperationName(e.op) && o.vendor === e.vendor && o.model === e.model && o.error === e.error && readResponseModel(o) === readResponseModel(e),
          );
          expect(sumSeries(samples, 'gen_ai_server_request_duration_seconds_count', genAi)).toBe(sameGenAi.length);
          if (e.target !== undefined && e.attempts > 0) {
            const outcome = e.error === undefined ? 'ok' : 'failed';
            const sameAttempts = events.filter((o) => o.target === e.target && o.attempts > 0 && (o.error === undefined ? 'ok' : 'failed') === outcome);
            expect(sumSeries(samples, 'gateway_attempts_total', { target: e.target, outcome })).toBe(sameAttempts.length);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
