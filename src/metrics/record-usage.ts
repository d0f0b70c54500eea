import type { UsageSink } from '../runtime/handle-request.ts';
import type { UsageEvent } from '../runtime/types.ts';
import type { CounterCell } from './define-counter.ts';
import type { HistogramCell } from './define-histogram.ts';
import type { RequestMetrics } from './define-metrics.ts';
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

/** The token types of `gen_ai_client_token_usage`, in the order recordGenAi reads their usage fields. */
const TOKEN_TYPES = ['input', 'output', 'cached_input', 'cache_creation_input', 'reasoning'] as const;

/** The GenAI series of one request shape on a model route; those not every request adds to are made on first use. */
interface GenAiCells {
  labels: readonly [string, string, string, string];
  duration: HistogramCell;
  spend?: CounterCell;
  firstToken?: HistogramCell;
  perOutputToken?: HistogramCell;
  tokens: (HistogramCell | undefined)[];
}

/** Every series one shape of request (one combination of its labels) adds to, looked up once per request. */
interface Shape {
  requests: CounterCell;
  overhead: HistogramCell;
  rejection?: CounterCell;
  attempt?: CounterCell;
  genAi?: GenAiCells;
}

/**
 * The metrics receiver of the usage event. A request finds every series it adds to with one Map lookup (its
 * shape: the label values it has), then adds plain numbers: no labels object built, hashed or checked per
 * request (prom-client reads the numbers when scraped). Every label is bounded by construction: models are
 * those of the config (anything else is `unknown`), response models are capped per target, keys are names,
 * routes are templates; no request id or client string becomes a label (nor a shape).
 */
export function createUsageRecorder(metrics: RequestMetrics, isKnownModel: (model: string) => boolean): UsageSink {
  const capResponseModel = createValueCap(RESPONSE_MODELS_PER_TARGET);
  const upstreams = new Map<string, string>();
  const shapes = new Map<string, Shape>();
  /** The last shape seen per target (bounded like the targets: by the config). */
  const lastShapes = new Map<string | undefined, LastShape>();
  const createShape = (event: UsageEvent, model: string, responseModel: string): Shape => {
    const key = event.key ?? '';
    const shape: Shape = {
      requests: metrics.requests.getCell(event.style, event.route ?? 'unmatched', String(event.status), key),
      overhead: metrics.overhead.getCell(event.style),
    };
    if (event.status === 429 && event.error !== undefined && REJECTIONS.has(event.error)) shape.rejection = metrics.rejections.getCell(event.error, key);
    if (isModelRoute(event)) {
      const labels = [getOperationName(event.op), event.vendor ?? '', model, responseModel] as const;
      shape.genAi = { labels, duration: metrics.requestDuration.getCell(...labels, event.error ?? ''), tokens: [] };
    }
    return shape;
  };
  return (event: ExtendedEvent) => {
    let model = '';
    let responseModel = '';
    // GenAI metrics for requests on a model route (an unknown or refused model included, as `unknown`).
    if (isModelRoute(event)) {
      model = event.model !== undefined && isKnownModel(event.model) ? event.model : 'unknown';
      const target = event.target ?? '';
      let upstream = event.responseModel ?? upstreams.get(target);
      if (upstream === undefined) upstreams.set(target, (upstream = target.slice(target.indexOf('/') + 1)));
      responseModel = capResponseModel(target, upstream);
    }
    // The shape of the last request on the same target, when this one has the same labels (the common case):
    // no id built. Otherwise every label value of its series, client strings bounded first (the model and response model).
    const last = lastShapes.get(event.target);
    let shape: Shape | undefined;
    if (last !== undefined && isSameShape(last, event, model, responseModel)) shape = last.shape;
    else {
      const id = `${event.style}\0${event.route}\0${event.op}\0${event.status}\0${event.key}\0${event.vendor}\0${event.target}\0${event.attempts > 0}\0${event.error}\0${model}\0${responseModel}`;
      shape = shapes.get(id);
      if (shape === undefined) shapes.set(id, (shape = createShape(event, model, responseModel)));
      lastShapes.set(event.target, defineLastShape(event, model, responseModel, shape));
    }
    shape.requests.inc();
    shape.overhead.observe(event.overheadMs / 1000);
    shape.rejection?.inc();
    if (event.failedTargets || event.coolingTargets) recordFailedTargets(metrics, event);
    // After the failed attempts: a target's series are listed in the order prom-client first saw them.
    if (event.target !== undefined && event.attempts > 0) (shape.attempt ??= metrics.attempts.getCell(event.target, event.error === undefined ? 'ok' : 'failed')).inc();
    if (shape.genAi) recordGenAi(metrics, shape.genAi, event);
  };
}

/** A shape with the label values (of the event and the bounded models) that found it. */
interface LastShape extends Pick<UsageEvent, 'style' | 'route' | 'op' | 'status' | 'key' | 'vendor' | 'error'> {
  attempted: boolean;
  model: string;
  responseModel: string;
  shape: Shape;
}

function defineLastShape(event: UsageEvent, model: string, responseModel: string, shape: Shape): LastShape {
  const { style, route, op, status, key, vendor, error } = event;
  return { style, route, op, status, key, vendor, attempted: event.attempts > 0, error, model, responseModel, shape };
}

/** True when `event` has every label value of `last` (its target is the key `last` was found by). */
function isSameShape(last: LastShape, event: UsageEvent, model: string, responseModel: string): boolean {
  return (
    last.status === event.status &&
    last.style === event.style &&
    last.route === event.route &&
    last.op === event.op &&
    last.key === event.key &&
    last.vendor === event.vendor &&
    last.attempted === event.attempts > 0 &&
    last.error === event.error &&
    last.model === model &&
    last.responseModel === responseModel
  );
}

/** True for a request on a model route (the GenAI metrics count it). */
function isModelRoute(event: UsageEvent): boolean {
  return event.route !== undefined && event.op !== 'models-list';
}

/** The GenAI series: duration, spend and, for a request that succeeded, time to first token and tokens. */
function recordGenAi(metrics: RequestMetrics, cells: GenAiCells, event: ExtendedEvent): void {
  const { labels } = cells;
  cells.duration.observe(event.durationMs / 1000);
  if (event.costUsd !== undefined && event.costUsd > 0) (cells.spend ??= metrics.spend.getCell(event.key ?? '', labels[2])).inc(event.costUsd);
  if (event.error !== undefined) return;
  const { usage } = event;
  if (event.ttfbMs !== undefined) {
    (cells.firstToken ??= metrics.timeToFirstToken.getCell(...labels)).observe(event.ttfbMs / 1000);
    const output = usage.outputTokens ?? 0;
    if (output > 1) (cells.perOutputToken ??= metrics.timePerOutputToken.getCell(...labels)).observe((event.durationMs - event.ttfbMs) / 1000 / (output - 1));
  }
  // Each field read by its name, in TOKEN_TYPES' order: a read through a computed key was a megamorphic keyed load per type and request.
  recordTokens(metrics, cells, 0, usage.inputTokens);
  recordTokens(metrics, cells, 1, usage.outputTokens);
  recordTokens(metrics, cells, 2, usage.cachedInputTokens);
  recordTokens(metrics, cells, 3, usage.cacheCreationInputTokens);
  recordTokens(metrics, cells, 4, usage.reasoningTokens);
}

/** Adds a count of the token type at `index` of TOKEN_TYPES to its series (made on first use), unless there is none. */
function recordTokens(metrics: RequestMetrics, cells: GenAiCells, index: number, count: number | undefined): void {
  if (count !== undefined && count > 0) (cells.tokens[index] ??= metrics.tokenUsage.getCell(...cells.labels, TOKEN_TYPES[index])).observe(count);
}

/** Failed attempts per target, fallbacks from the targets left, and cooldown skips (only requests that had them). */
function recordFailedTargets(metrics: RequestMetrics, event: UsageEvent): void {
  const failed = event.failedTargets;
  if (failed) {
    for (let i = 0; i < failed.length; i++) {
      metrics.attempts.getCell(failed[i], 'failed').inc();
      const next = i + 1 < failed.length ? failed[i + 1] : event.target;
      if (next !== failed[i]) metrics.fallbacks.getCell(failed[i]).inc();
    }
  }
  if (event.coolingTargets) for (const target of event.coolingTargets) metrics.cooldownSkips.getCell(target).inc();
}
