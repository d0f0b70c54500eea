import type { UsageSink } from '../runtime/handle-request.ts';
import type { UsageEvent } from '../runtime/types.ts';
import type { RequestMetrics } from './define-metrics.ts';
import { cacheChildren } from './cache-children.ts';
import { createValueCap, getOperationName, RESPONSE_MODELS_PER_TARGET } from './labels.ts';

/**
 * Fields other parts of the gateway add to the usage event, read when present: the cost (price table),
 * the model the vendor says it served, and the finer token counts of the normalised usage.
 */
type ExtendedEvent = UsageEvent & {
  costUsd?: number;
  responseModel?: string;
  usage: UsageEvent['usage'] & { cachedInputTokens?: number; cacheCreationInputTokens?: number };
};

/** Error codes of the gateway's own refusals that count as limit or budget rejections. */
const REJECTIONS = new Set(['rate_limit_exceeded', 'budget_exceeded']);

/**
 * The metrics receiver of the usage event. Every label is bounded by construction: models are those of
 * the config (anything else is `unknown`), response models are capped per target, keys are names,
 * routes are templates; no request id or client string becomes a label.
 */
export function createUsageRecorder(metrics: RequestMetrics, isKnownModel: (model: string) => boolean): UsageSink {
  const capResponseModel = createValueCap(RESPONSE_MODELS_PER_TARGET);
  const requests = cacheChildren(metrics.requests);
  const overhead = cacheChildren(metrics.overhead);
  const requestDuration = cacheChildren(metrics.requestDuration);
  const timeToFirstToken = cacheChildren(metrics.timeToFirstToken);
  const timePerOutputToken = cacheChildren(metrics.timePerOutputToken);
  const tokenUsage = cacheChildren(metrics.tokenUsage);
  const observeTokens = (labels: readonly [string, string, string, string], type: string, count: number | undefined): void => {
    if (count !== undefined && count > 0) tokenUsage(...labels, type).observe(count);
  };
  return (event: ExtendedEvent) => {
    const key = event.key ?? '';
    const status = event.status;
    requests(event.style, event.route ?? 'unmatched', String(status), key).inc();
    overhead(event.style).observe(event.overheadMs / 1000);
    if (status === 429 && event.error !== undefined && REJECTIONS.has(event.error)) metrics.rejections.labels(event.error, key).inc();
    recordTargets(metrics, event);
    // GenAI metrics for requests on a model route (an unknown or refused model included, as `unknown`).
    if (event.route === undefined || event.op === 'models-list') return;
    const model = event.model !== undefined && isKnownModel(event.model) ? event.model : 'unknown';
    const target = event.target ?? '';
    const upstream = event.responseModel ?? target.slice(target.indexOf('/') + 1);
    const labels = [getOperationName(event.op), event.vendor ?? '', model, capResponseModel(target, upstream)] as const;
    requestDuration(...labels, event.error ?? '').observe(event.durationMs / 1000);
    if (event.costUsd !== undefined && event.costUsd > 0) metrics.spend.labels(key, model).inc(event.costUsd);
    if (event.error !== undefined) return;
    const { usage } = event;
    if (event.ttfbMs !== undefined) {
      timeToFirstToken(...labels).observe(event.ttfbMs / 1000);
      const output = usage.outputTokens ?? 0;
      if (output > 1) timePerOutputToken(...labels).observe((event.durationMs - event.ttfbMs) / 1000 / (output - 1));
    }
    observeTokens(labels, 'input', usage.inputTokens);
    observeTokens(labels, 'output', usage.outputTokens);
    observeTokens(labels, 'cached_input', usage.cachedInputTokens);
    observeTokens(labels, 'cache_creation_input', usage.cacheCreationInputTokens);
    observeTokens(labels, 'reasoning', usage.reasoningTokens);
  };
}

/** Attempts per target (the last one `ok`, earlier ones `failed`), fallbacks and cooldown skips. */
function recordTargets(metrics: RequestMetrics, event: UsageEvent): void {
  const failed = event.failedTargets;
  if (failed) {
    for (let i = 0; i < failed.length; i++) {
      metrics.attempts.labels(failed[i], 'failed').inc();
      const next = i + 1 < failed.length ? failed[i + 1] : event.target;
      if (next !== failed[i]) metrics.fallbacks.labels(failed[i]).inc();
    }
  }
  if (event.target !== undefined && event.attempts > 0) metrics.attempts.labels(event.target, event.error === undefined ? 'ok' : 'failed').inc();
  if (event.coolingTargets) for (const target of event.coolingTargets) metrics.cooldownSkips.labels(target).inc();
}
