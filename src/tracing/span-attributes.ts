import type { UsageEvent } from '../runtime/types.ts';
import { getOperationName } from '../metrics/labels.ts';

/** Usage counts other parts of the gateway may add to the event (read when present). */
type ExtendedUsage = UsageEvent['usage'] & { cachedInputTokens?: number; cacheCreationInputTokens?: number };

/** A span attribute's value. */
type AttributeValue = string | number | string[];

/**
 * The GenAI span attributes of a request (OpenTelemetry GenAI semantic conventions) plus its HTTP facts;
 * `gen_ai.response.finish_reasons` when the answer said why the model stopped (see `RequestContext.finishReasons`).
 */
export function getRequestAttributes(event: UsageEvent): Record<string, AttributeValue> {
  const usage = event.usage as ExtendedUsage;
  const attributes: Record<string, AttributeValue> = {
    'gen_ai.operation.name': getOperationName(event.op),
    'http.request.method': event.method,
    'http.response.status_code': event.status,
    'gateway.request_id': event.requestId,
    'gateway.attempts': event.attempts,
    'gateway.overhead_ms': event.overheadMs,
  };
  const optional: [string, AttributeValue | undefined][] = [
    ['gen_ai.provider.name', event.vendor],
    ['gen_ai.request.model', event.model],
    ['gen_ai.response.model', event.target?.slice(event.target.indexOf('/') + 1)],
    ['gen_ai.response.finish_reasons', event.finishReasons],
    ['gen_ai.usage.input_tokens', usage.inputTokens],
    ['gen_ai.usage.output_tokens', usage.outputTokens],
    ['gen_ai.usage.cache_read.input_tokens', usage.cachedInputTokens],
    ['gen_ai.usage.cache_creation.input_tokens', usage.cacheCreationInputTokens],
    ['gen_ai.usage.reasoning.output_tokens', usage.reasoningTokens],
    ['http.route', event.route],
    ['error.type', event.error],
    ['gateway.key', event.key],
  ];
  for (const [name, value] of optional) if (value !== undefined) attributes[name] = value;
  return attributes;
}

/** The attributes of one vendor attempt on `target` (`vendor/upstream`). */
export function getAttemptAttributes(event: UsageEvent, target: string, failed: boolean): Record<string, string | number> {
  const slash = target.indexOf('/');
  const attributes: Record<string, string | number> = {
    'gen_ai.operation.name': getOperationName(event.op),
    'gen_ai.provider.name': target.slice(0, slash),
    'gen_ai.request.model': target.slice(slash + 1),
    'gateway.target': target,
  };
  if (failed) attributes['error.type'] = 'attempt_failed';
  else if (event.error !== undefined) attributes['error.type'] = event.error;
  return attributes;
}
