import type { ServerResponse } from 'node:http';

/** The events of one simulated stream: `paced` are the content events spaced by the interval. */
export interface StreamPlan {
  head: string[];
  paced: string[];
  tail: string[];
}

/** Response headers of an SSE stream. */
export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/** Frames one SSE event: optional `event:` line, one `data:` line, blank line (LF or CRLF). */
export function formatSse(data: string, event?: string, newline = '\n'): string {
  return event === undefined
    ? `data: ${data}${newline}${newline}`
    : `event: ${event}${newline}data: ${data}${newline}${newline}`;
}

/**
 * Writes a stream: head events at once, then each paced event after `intervalMs` (all at once when 0),
 * then the tail; one `write` per event (faults count events by writes). Stops when the client leaves.
 */
export function writeStream(
  res: ServerResponse,
  headers: Record<string, string>,
  plan: StreamPlan,
  intervalMs = 0,
): Promise<void> | void {
  res.writeHead(200, headers);
  if (intervalMs <= 0) {
    res.cork();
    for (const event of plan.head) res.write(event);
    for (const event of plan.paced) res.write(event);
    for (const event of plan.tail) res.write(event);
    res.uncork();
    res.end();
    return;
  }
  return writePaced(res, plan, intervalMs);
}

async function writePaced(res: ServerResponse, plan: StreamPlan, intervalMs: number): Promise<void> {
  let gone = false;
  res.once('close', () => (gone = true));
  for (const event of plan.head) res.write(event);
  for (const event of plan.paced) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    if (gone) return;
    res.write(event);
  }
  for (const event of plan.tail) res.write(event);
  res.end();
}
