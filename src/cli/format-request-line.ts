import type { UsageEvent } from '../runtime/types.ts';

/** The fields that name who asked for what (the same request after request), serialized together and kept. */
type Caller = Pick<UsageEvent, 'key' | 'model' | 'vendor' | 'target' | 'op' | 'style' | 'method' | 'path' | 'route' | 'client' | 'pid'>;

/**
 * Makes the writer of the request log line: `{"level":30,"time":T,<the event's fields>,"msg":"request"}` and a
 * newline, byte for byte what `JSON.stringify` of the event in pino's line shape gives (the event's fields in
 * the order createUsageEvent of src/runtime/usage-event.ts sets them; test/cli/format-request-line.test.ts
 * proves it on arbitrary events). The caller's fields (key, model, vendor, target, op, style, method, path,
 * route, client, pid) are serialized once and reused while the next event has the same values, as nearly every
 * event does; the outcome's fields (status to the error) by one `JSON.stringify`, which writes numbers
 * straight into its output. About a third less than serializing the whole event each time.
 */
export function createRequestLineFormatter(): (event: UsageEvent, time: number) => string {
  let caller: Caller | undefined;
  let callerJson = '';
  return (event, time) => {
    if (caller === undefined || !isSameCaller(caller, event)) {
      caller = readCaller(event);
      callerJson = readFields(JSON.stringify(caller));
    }
    const { requestId } = event;
    const outcome = readFields(JSON.stringify(readOutcome(event)));
    const id = typeof requestId === 'string' ? `,"requestId":${JSON.stringify(requestId)}` : readFields(JSON.stringify({ requestId }));
    return `{"level":30,"time":${time}${id}${callerJson}${outcome},"msg":"request"}\n`;
  };
}

/** The members of a serialized object with a comma before them (`{"a":1}` gives `,"a":1`), or '' for `{}`. */
function readFields(json: string): string {
  return json.length > 2 ? `,${json.slice(1, -1)}` : '';
}

/** The fields of the request's outcome, in the event's order (undefined ones are left out of the line). */
function readOutcome(event: UsageEvent) {
  return {
    status: event.status,
    ttfbMs: event.ttfbMs,
    durationMs: event.durationMs,
    overheadMs: event.overheadMs,
    vendorCalls: event.vendorCalls,
    attempts: event.attempts,
    usage: event.usage,
    generation: event.generation,
    costUsd: event.costUsd,
    native: event.native,
    failedTargets: event.failedTargets,
    coolingTargets: event.coolingTargets,
    finishReasons: event.finishReasons,
    error: event.error,
    cause: event.cause,
  };
}

function readCaller(event: UsageEvent): Caller {
  const { key, model, vendor, target, op, style, method, path, route, client, pid } = event;
  return { key, model, vendor, target, op, style, method, path, route, client, pid };
}

function isSameCaller(caller: Caller, event: UsageEvent): boolean {
  return (
    caller.path === event.path &&
    caller.model === event.model &&
    caller.key === event.key &&
    caller.target === event.target &&
    caller.client === event.client &&
    caller.vendor === event.vendor &&
    caller.op === event.op &&
    caller.style === event.style &&
    caller.method === event.method &&
    caller.route === event.route &&
    caller.pid === event.pid
  );
}
