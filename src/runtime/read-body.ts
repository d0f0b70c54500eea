import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.ts';
import { readChunks } from './collect-chunks.ts';

/** What a body read ends with: the error to answer (a GatewayError), or the body's bytes. */
export type BodyCallback = (error: GatewayError | undefined, raw?: Buffer) => void;

const EMPTY = Buffer.alloc(0);

/**
 * Fulfilled once: a `then` on it queues its callback as one microtask, as `queueMicrotask` would, without
 * the async resource and bound wrapper Node's queueMicrotask makes for each (~450 instructions a request).
 */
const SETTLED = Promise.resolve();

/**
 * Reads a whole (JSON) request body and calls `done` once, never before the caller's turn ends: 413 past
 * `limit` bytes without reading further, 408 when it has not arrived by `deadline` (a `performance.now()`
 * time; 0: no deadline). The rest of a refused upload is left to {@link drainRequest} by whoever answers.
 * The read starts once the listener's turn is over, when Node's parser has taken in whatever arrived with
 * the headers: a body all there by then (a small one sent with its headers: nearly every request) is
 * taken from the request's buffer at once, with no listener and no deadline timer. Node marks such a
 * request `complete` only a moment later: `GatewayContext.bodyReceived` says it arrived whole.
 */
export function readBody(req: IncomingMessage, limit: number, deadline: number, done: BodyCallback): void {
  const declared = readDeclaredLength(req.headers['content-length']);
  if (declared > limit) {
    void SETTLED.then(() => done(tooLarge(limit)));
    return;
  }
  void SETTLED.then(() => {
    if (isBodyBuffered(req, declared)) takeBuffered(req, limit, done);
    else readArriving(req, limit, deadline, done);
  });
}

/** Longest Content-Length read digit by digit: any 15-digit number is below 2^53, so exact. */
const MAX_COUNTED_DIGITS = 15;

/**
 * A Content-Length header as `Number(header)` reads it (NaN when absent or not a number). A plain run of
 * digits, nearly every request's, is counted here: `Number` of a string that is not yet a cached array
 * index is a call into V8's runtime (~300 instructions). Anything else goes to `Number` itself.
 */
export function readDeclaredLength(header: string | undefined): number {
  if (header === undefined) return NaN;
  const length = header.length;
  if (length === 0 || length > MAX_COUNTED_DIGITS) return Number(header);
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = header.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(header);
    value = value * 10 + digit;
  }
  return value;
}

/** Whether the whole body is in the request's buffer, unread (its declared length, or the message complete). */
function isBodyBuffered(req: IncomingMessage, declared: number): boolean {
  if (req.readableFlowing !== null || req.destroyed) return false;
  return req.complete || declared === req.readableLength;
}

/**
 * Takes a body that is all in the request's buffer. The stream is left paused and empty: nothing more
 * comes for this request, and Node lets go of it with its connection's next request (no flowing on to an
 * 'end' nobody listens for: that costs each request several more ticks).
 */
function takeBuffered(req: IncomingMessage, limit: number, done: BodyCallback): void {
  if (req.readableLength > limit) return done(tooLarge(limit));
  done(undefined, (req.read() as Buffer | null) ?? EMPTY);
}

/** A body still arriving: read as it streams in, bounded by the deadline. */
function readArriving(req: IncomingMessage, limit: number, deadline: number, done: BodyCallback): void {
  let timer: NodeJS.Timeout | undefined;
  const stop = readChunks(req, limit, (error, collected) => {
    if (timer !== undefined) clearTimeout(timer);
    if (!collected) return done(new GatewayError(400, 'body_read_failed', `Could not read the request body: ${(error as Error).message}`));
    if (!collected.ended) return done(tooLarge(limit));
    done(undefined, collected.chunks.length === 1 ? collected.chunks[0] : Buffer.concat(collected.chunks, collected.size));
  });
  if (deadline > 0) {
    // Whole milliseconds: nearly every request then shares one timer list (Node keeps a list per duration).
    timer = setTimeout(() => {
      stop();
      done(getBodyTimeoutError());
    }, Math.max(1, Math.ceil(deadline - performance.now())));
  }
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(413, 'request_too_large', `The request body exceeds the limit of ${limit} bytes.`);
}

/** The 408 of a request whose body did not arrive in time (sent before the body ended, so it closes the connection). */
export function getBodyTimeoutError(): GatewayError {
  return new GatewayError(408, 'request_timeout', 'The request body did not arrive in time.');
}

/** Parses a JSON object body, answering 400 for malformed JSON or a non-object. */
export function parseJsonBody(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    // toString() with no argument is UTF-8 and goes straight to the decode (no encoding lookup).
    value = JSON.parse(raw.toString());
  } catch (error) {
    throw new GatewayError(400, 'invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError(400, 'invalid_json', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
