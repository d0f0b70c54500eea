import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError } from '../errors.ts';
import { renderError } from '../protocols/render-error.ts';
import { DEFAULT_STYLE } from '../protocols/styles.ts';
import { sendError } from './handle-request.ts';
import { findContext } from './response-context.ts';
import { createRequestId } from './request-id.ts';

/** How long a rejected connection stays open after the answer, so the client can read it before the close. */
const CLOSE_DELAY_MS = 1000;

/** Node's own rejections (parser errors, header overflow, timeouts) in the gateway's words. */
function toGatewayError(error: NodeJS.ErrnoException): GatewayError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new GatewayError(431, 'headers_too_large', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new GatewayError(408, 'request_timeout', 'The request did not arrive in time.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new GatewayError(413, 'request_too_large', 'The chunk extensions of the request body are too large.');
    default:
      return new GatewayError(400, 'malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * The server's `clientError` listener: answers what Node's HTTP parser rejects before any route is known
 * (400 malformed request, 408 timeout, 431 headers too large) with the gateway's JSON error body (OpenAI
 * shape) and an `x-request-id`, then closes the connection. A connection whose answer has begun, or that
 * the client reset, is just closed; one whose request arrived whole (the bytes after it failed) gets that
 * request's own answer, then is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const response = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const ctx = response ? findContext(response) : undefined;
  if (ctx?.req.complete) {
    // The request in flight arrived whole: what failed to parse is what came after it (e.g. a DELETE's body
    // sent with neither content-length nor chunked framing, which HTTP reads as the next request). The
    // request is answered as its route does, then the connection closes without reading further.
    ctx.headers.connection = 'close';
    response!.shouldKeepAlive = false;
    return;
  }
  if (ctx) {
    // The request was under way (an upload cut part way): answered in its caller's style, with its id.
    ctx.headers.connection = 'close';
    sendError(ctx, toGatewayError(error));
    closeLater(socket);
    return;
  }
  const requestId = createRequestId();
  const rendered = renderError(DEFAULT_STYLE, toGatewayError(error), requestId);
  const head = [
    `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status]}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(rendered.body)}`,
    `x-request-id: ${requestId}`,
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${rendered.body}`);
  closeLater(socket);
}

/** Reads and drops whatever the client still sends until the close, so the answer is not reset away. */
function closeLater(socket: Duplex): void {
  socket.on('data', () => undefined);
  setTimeout(() => socket.destroy(), CLOSE_DELAY_MS).unref();
}
