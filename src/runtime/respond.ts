import { performance } from 'node:perf_hooks';
import type { RequestContext } from './types.ts';

/**
 * Marks the moment the client's response starts: commits the current attempt (no retry or fallback after
 * it; throws if the attempt was already given up) and records the time to first byte.
 */
export function markFirstByte(ctx: RequestContext): void {
  ctx.commit?.();
  if (ctx.ttfbMs === undefined) ctx.ttfbMs = performance.now() - ctx.startedAt;
}

/** Sends a complete JSON (or preserialized) response. The one place whole responses are written. */
export function sendJson(
  ctx: RequestContext,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  sendBytes(ctx, status, text, { 'content-type': 'application/json', ...headers });
}

/** Sends a complete response of any content type. */
export function sendBytes(
  ctx: RequestContext,
  status: number,
  body: string | Buffer,
  headers: Record<string, string>,
): void {
  const { res } = ctx;
  if (res.headersSent) return;
  markFirstByte(ctx);
  res.writeHead(status, {
    ...headers,
    ...ctx.headers,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/** Writes response headers for a stream that follows (SSE or raw bytes). */
export function startStream(
  ctx: RequestContext,
  status: number,
  headers: Record<string, string> = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
): void {
  const { res } = ctx;
  if (res.headersSent) return;
  markFirstByte(ctx);
  // A flat list (no merged object per stream); the request's own headers win over `headers`.
  const list: string[] = [];
  for (const name in headers) if (!(name in ctx.headers)) list.push(name, headers[name]);
  for (const name in ctx.headers) list.push(name, ctx.headers[name]);
  // No flushHeaders: the headers leave with the first piece written, in the same packet.
  res.writeHead(status, list);
}

/**
 * Writes a piece of an open stream; returns false when the client is gone. (Node corks the socket for
 * the rest of the tick on a chunked write, so pieces written together leave in one packet.)
 */
export function writeStream(ctx: RequestContext, chunk: string | Buffer): boolean {
  const { res } = ctx;
  if (res.destroyed || res.writableEnded) return false;
  res.write(chunk);
  return true;
}

/** Ends an open stream. */
export function endStream(ctx: RequestContext, chunk?: string | Buffer): void {
  const { res } = ctx;
  if (res.destroyed || res.writableEnded) return;
  if (chunk !== undefined) res.end(chunk);
  else res.end();
}
