import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { GatewayError, toGatewayError } from '../errors.ts';
import { renderError } from '../protocols/render-error.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { DEFAULT_STYLE, getStyleFacts } from '../protocols/styles.ts';
import { GatewayContext } from './gateway-context.ts';
import { authenticate } from './auth.ts';
import type { UsageSink } from './handle-request.ts';
import { createRealtimeUpgradeHandler, type RealtimeTarget } from './realtime.ts';
import { createRequestId } from './request-id.ts';
import { readModelId, resolveModel } from './resolve-model.ts';
import { addVendorAuth } from './vendor-call.ts';
import { createUsageEvent } from './usage-event.ts';
import type { RequestContext, Snapshot } from './types.ts';

const contexts = new WeakMap<IncomingMessage, RequestContext>();
/** Browser clients cannot set headers on a WebSocket: a style's SDK may send the key as a subprotocol. */
function readSubprotocolKey(ctx: RequestContext): string | undefined {
  const prefix = getStyleFacts(ctx.style).subprotocolKeyPrefix;
  if (prefix === undefined) return undefined;
  const offered = String(ctx.req.headers['sec-websocket-protocol'] ?? '').split(',');
  const entry = offered.map((p) => p.trim()).find((p) => p.startsWith(prefix));
  return entry?.slice(prefix.length) || undefined;
}

function createUpgradeContext(req: IncomingMessage, snapshot: Snapshot): RequestContext {
  // An upgrade has no ServerResponse: nothing here writes one (errors are written to the socket).
  const ctx = new GatewayContext(req, undefined as never, snapshot);
  if (!ctx.matched || ctx.route.op !== 'realtime') {
    throw new GatewayError(404, 'route_not_found', `No WebSocket route for ${(req.url ?? '/').split('?')[0]}.`);
  }
  return ctx;
}

/** Authenticates an upgrade, resolves its model and builds the vendor's WebSocket URL and headers. */
function authorizeRealtime(req: IncomingMessage, snapshot: Snapshot): RealtimeTarget {
  const ctx = createUpgradeContext(req, snapshot);
  contexts.set(req, ctx);
  ctx.key = authenticate(ctx, readSubprotocolKey(ctx));
  ctx.modelId = readModelId(ctx, undefined);
  ctx.model = resolveModel(ctx, ctx.modelId);
  ctx.target = ctx.model.targets[0];
  const vendor = snapshot.vendors.get(ctx.target.vendor)!;
  ctx.vendor = vendor;
  const adapter = getProtocolAdapter(vendor.config.protocol);
  const endpoint = adapter.passthrough.realtime;
  if (!endpoint || adapter.style !== ctx.style) {
    throw new GatewayError(501, 'not_implemented', `Realtime sessions are not available for models on ${vendor.config.protocol} vendors.`);
  }
  const query = new URLSearchParams(ctx.query);
  // The client's own key (Google-style `?key=`) is the gateway's business, never the vendor's.
  query.delete('key');
  query.set(ctx.route.model.name, ctx.target.upstream);
  const headers: Record<string, string> = {};
  for (const name of adapter.requestHeaders) {
    const value = req.headers[name];
    if (typeof value === 'string' && name !== 'content-type') headers[name] = value;
  }
  const path = addVendorAuth(vendor, `${vendor.basePath}${endpoint.path}?${query}`, headers);
  ctx.vendorCalls = 1;
  ctx.attempts = 1;
  return { upstreamUrl: vendor.origin + path, headers, redactor: vendor.redactor, requestId: ctx.id };
}

/** The server's `upgrade` listener: realtime WebSocket sessions, authenticated, proxied, one usage event each. */
export function createUpgradeListener(getSnapshot: () => Snapshot, sink: UsageSink) {
  return createRealtimeUpgradeHandler(
    {
      authorize: async (req) => authorizeRealtime(req, getSnapshot()),
      renderError(error, req) {
        const ctx = contexts.get(req);
        const id = ctx?.id ?? createRequestId();
        const rendered = renderError(ctx?.style ?? DEFAULT_STYLE, toGatewayError(error), id);
        return { status: rendered.status, headers: { ...rendered.headers, 'x-request-id': id }, body: rendered.body };
      },
    },
    (outcome, req) => {
      const ctx = contexts.get(req);
      if (!ctx) return;
      // The session is the vendor's time: the gateway's overhead is not measured for it.
      ctx.vendorMs = outcome.durationMs;
      sink(createUsageEvent(ctx, outcome.status, outcome.durationMs, outcome.error));
    },
  );
}
