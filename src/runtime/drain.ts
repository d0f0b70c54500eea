import { GatewayError } from '../errors.ts';
import { sendError, type InFlight } from './handle-request.ts';

/** How often the drain looks whether the requests in flight have finished. */
const POLL_MS = 50;
/** Time the requests ended at the deadline get to write their error before the connections are closed. */
const CUT_GRACE_MS = 1000;

function waitForIdle(inFlight: InFlight, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (inFlight.active === 0 || Date.now() >= deadline ? resolve() : setTimeout(check, POLL_MS));
    check();
  });
}

/**
 * Ends every request still in flight as the gateway's doing: the answer (or the open stream) ends with
 * a 503 `gateway_shutting_down` error in the caller's style, the vendor call is aborted, and the request's
 * close handler logs that error instead of 499 (it finds the request no longer in `inFlight.contexts`).
 */
function cutInFlight(inFlight: InFlight): void {
  const error = new GatewayError(503, 'gateway_shutting_down', 'The gateway is shutting down and ended this request at its drain deadline; retry it.', {
    retryAfter: 1,
  });
  inFlight.cut = error;
  for (const ctx of inFlight.contexts) {
    inFlight.contexts.delete(ctx);
    // A handler still piping may write once more after the end: that must not become an 'error' event.
    ctx.res.on('error', () => undefined);
    sendError(ctx, error);
    ctx.abortSource.abort(error);
  }
}

/**
 * Waits up to `drainMs` for the requests in flight (streams included) to finish; at that deadline ends
 * the ones left with the style's error and gives them a moment to write it. The caller closes the
 * connections afterwards.
 */
export async function drainInFlight(inFlight: InFlight, drainMs: number): Promise<void> {
  await waitForIdle(inFlight, Date.now() + drainMs);
  if (inFlight.active === 0) return;
  cutInFlight(inFlight);
  await waitForIdle(inFlight, Date.now() + CUT_GRACE_MS);
}
