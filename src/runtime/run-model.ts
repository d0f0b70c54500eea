import type { ModelEntry, TargetEntry } from '../config/types.ts';
import type { Admission } from '../limits/limiter.ts';
import { orderTargets } from '../routing/order-targets.ts';
import { runAttempts } from '../routing/run-attempts.ts';
import { estimateReservation } from '../spend/estimate-reservation.ts';
import type { AbortSource } from './abort-source.ts';
import type { DispatchTable } from './dispatch-table.ts';
import type { GatewayContext } from './gateway-context.ts';
import { resolveModel } from './resolve-model.ts';
import type { Services } from './services.ts';
import type { OpCall, RequestContext } from './types.ts';
import { getTargetName } from './usage-event.ts';
import { callVendor } from './vendor-call.ts';

/** What a request hands to every attempt: its parsed body, raw bytes or upload stream. */
export interface CallInput {
  body: any;
  raw?: Buffer;
  upload?: OpCall['upload'];
}

/**
 * Model → concurrency slot → token and budget reservation (the request's largest usage) → the handler,
 * on one target or through the routing's attempts. No promise of its own where the limits need none (a
 * key with no concurrency limit, a store in this process): the handler's promise, or a throw.
 */
export function runModel(ctx: GatewayContext, services: Services, dispatch: DispatchTable, admission: Admission, input: CallInput, modelId: string): Promise<void> {
  const model = resolveModel(ctx, modelId);
  ctx.modelId = modelId;
  ctx.model = model;
  const taking = admission.acquire();
  if (taking) return taking.then(() => reserveThenRun(ctx, services, dispatch, admission, input, model));
  return reserveThenRun(ctx, services, dispatch, admission, input, model);
}

/** Reserves the request's tokens and budget (keys without a token limit or budget reserve nothing), then runs it. */
function reserveThenRun(ctx: GatewayContext, services: Services, dispatch: DispatchTable, admission: Admission, input: CallInput, model: ModelEntry): Promise<void> {
  if (!admission.countsTokens) return runTargets(ctx, services, dispatch, input, model);
  let reserving: void | Promise<void>;
  try {
    reserving = admission.reserve(estimateReservation(ctx.route.op, model, input.body, input.raw?.length ?? 0));
  } catch (error) {
    admission.copyHeaders(ctx.headers);
    throw error;
  }
  // A store in this process reserves at once (no promise). A reservation taken changes the headers copied
  // when the request was admitted (serve-request.ts) only by a budget's header: copied again for a budget alone.
  if (!reserving) {
    if (admission.countsSpend) admission.copyHeaders(ctx.headers);
    return runTargets(ctx, services, dispatch, input, model);
  }
  return reserving.then(
    () => {
      if (admission.countsSpend) admission.copyHeaders(ctx.headers);
      return runTargets(ctx, services, dispatch, input, model);
    },
    (error: unknown) => {
      admission.copyHeaders(ctx.headers);
      throw error;
    },
  );
}

/** The model's one target, or its targets through retries, fallbacks and deadlines. */
function runTargets(ctx: GatewayContext, services: Services, dispatch: DispatchTable, input: CallInput, model: ModelEntry): Promise<void> {
  const { routing } = model;
  if (model.targets.length === 1 && model.fallback.length === 0 && routing.retries === 0 && !routing.attemptTimeoutMs && !routing.deadlineMs) {
    // One target, nothing to retry: no attempt machinery on the hot path (same outcome as runAttempts).
    return runTarget(ctx, dispatch, input, model.targets[0], ctx.abortSource);
  }
  return runAttempts({
    targets: orderTargets(model, Math.random),
    policy: routing,
    signal: ctx.signal,
    deadline: routing.deadlineMs ? Math.min(ctx.deadline, Date.now() + routing.deadlineMs) : ctx.deadline,
    health: services.health,
    onCooling: (target) => (ctx.coolingTargets ??= []).push(getTargetName(target)),
    attempt: (attempt) => runTarget(ctx, dispatch, input, attempt.target, attempt.signal, attempt.commit),
  });
}

/** Runs the operation's handler against one target (one attempt). */
function runTarget(
  ctx: RequestContext,
  dispatch: DispatchTable,
  input: CallInput,
  target: TargetEntry,
  signal: AbortSignal | AbortSource,
  commit?: () => void,
): Promise<void> {
  const vendor = ctx.snapshot.vendors.get(target.vendor)!;
  // A second attempt: the one before it failed (a committed attempt is never followed by another).
  if (ctx.attempts++ > 0 && ctx.target) (ctx.failedTargets ??= []).push(getTargetName(ctx.target));
  ctx.target = target;
  ctx.vendor = vendor;
  ctx.commit = commit;
  const call: OpCall = {
    ctx,
    body: input.body,
    raw: input.raw,
    upload: input.upload,
    model: ctx.model!,
    target,
    vendor,
    callVendor: (request, vendorName) => callVendor(ctx, vendorName ? ctx.snapshot.vendors.get(vendorName)! : vendor, request, signal),
  };
  return dispatch.getHandler(ctx.route.op, ctx.style, vendor.config.protocol)(call);
}
