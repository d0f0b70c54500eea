import { performance } from 'node:perf_hooks';
import type { UsageSink } from '../runtime/handle-request.ts';
import { startReadingFinishReasons } from '../runtime/finish-reasons.ts';
import { getAttemptAttributes, getRequestAttributes } from './span-attributes.ts';

/** A running trace exporter: its usage receiver and a way to flush and stop it. */
export interface TraceSink {
  record: UsageSink;
  close(): Promise<void>;
}

/**
 * When `OTEL_EXPORTER_OTLP_ENDPOINT` is set: loads the OpenTelemetry SDK (dynamic imports, nothing loaded
 * otherwise) and returns a usage receiver that exports, per request, a server span with the GenAI
 * attributes and one client span per vendor attempt (OTLP/HTTP, batched). Spans are written from the usage
 * event when the request ends, so tracing costs the request path nothing. An attempt span's times are
 * derived from the event: the last attempt spans the request's vendor time up to its end, earlier failed
 * attempts share the time before it.
 */
export async function createTraceSink(env: NodeJS.ProcessEnv = process.env): Promise<TraceSink | undefined> {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!url) return undefined;
  const api = await import('@opentelemetry/api');
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'model-gateway' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  const tracer = provider.getTracer('model-gateway');
  // Requests read their finish reasons only for traces (`gen_ai.response.finish_reasons`).
  startReadingFinishReasons();
  const origin = performance.timeOrigin;
  const record: UsageSink = (event) => {
    const end = origin + performance.now();
    const start = end - event.durationMs;
    const attributes = getRequestAttributes(event);
    const name = event.model ? `${attributes['gen_ai.operation.name']} ${event.model}` : `${event.method} ${event.route ?? 'unmatched'}`;
    const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, startTime: start, attributes });
    if (event.error !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR, message: event.error });
    const parent = api.trace.setSpan(api.ROOT_CONTEXT, span);
    const targets = event.target === undefined ? [] : [...(event.failedTargets ?? []), event.target];
    const vendorStart = Math.max(start, end - Math.max(0, event.durationMs - event.overheadMs));
    targets.forEach((target, i) => {
      const last = i === targets.length - 1;
      const attempt = tracer.startSpan(
        `${attributes['gen_ai.operation.name']} ${target.slice(target.indexOf('/') + 1)}`,
        { kind: api.SpanKind.CLIENT, startTime: last ? vendorStart : start, attributes: getAttemptAttributes(event, target, !last) },
        parent,
      );
      if (!last || event.error !== undefined) attempt.setStatus({ code: api.SpanStatusCode.ERROR });
      attempt.end(last ? end : vendorStart);
    });
    span.end(end);
  };
  return { record, close: () => provider.shutdown() };
}
