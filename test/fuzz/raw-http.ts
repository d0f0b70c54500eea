import { connect } from 'node:net';

/** A request written byte for byte onto a socket (no client library normalizes or refuses anything). */
export interface RawRequest {
  /** The request head up to (not including) the blank line; lines joined with CRLF by {@link sendRaw}. */
  head: string | Buffer;
  body?: Buffer;
  /** Send only this many body bytes, then cut the connection (a truncated upload). */
  cutAfter?: number;
  /** How the truncated upload ends: `end` half-closes (FIN), `destroy` resets. Default `destroy`. */
  cutHow?: 'end' | 'destroy';
}

/** What came back on the socket. */
export interface RawAnswer {
  /** Undefined when no status line arrived before the connection ended or the wait ran out. */
  status?: number;
  /** Lower-cased header names; repeated headers keep their last value. */
  headers: Record<string, string>;
  /** The body, de-chunked when the answer was chunked. */
  body: Buffer;
  /** Every byte received (headers included), for the secret scan. */
  raw: Buffer;
  /** The wait ran out before the server closed the connection. */
  timedOut: boolean;
  /** The socket failed (EPIPE, ECONNRESET) before the server closed it. */
  socketError?: string;
}

/** Sends `request` to 127.0.0.1:`port` and reads until the server closes or `waitMs` passes. */
export function sendRaw(port: number, request: RawRequest, waitMs: number): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timedOut = false;
    let socketError: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (socketError ??= error.code ?? error.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks), timedOut, socketError));
    });
    socket.on('connect', () => {
      const head = typeof request.head === 'string' ? Buffer.from(request.head, 'utf8') : request.head;
      const body = request.body ?? Buffer.alloc(0);
      const sent = request.cutAfter === undefined ? body : body.subarray(0, request.cutAfter);
      socket.write(Buffer.concat([head, Buffer.from('\r\n\r\n'), sent]));
      if (request.cutAfter === undefined) return;
      if (request.cutHow === 'end') socket.end();
      else setTimeout(() => socket.destroy(), 20);
    });
  });
}

function parseAnswer(raw: Buffer, timedOut: boolean, socketError?: string): RawAnswer {
  const answer: RawAnswer = { headers: {}, body: Buffer.alloc(0), raw, timedOut, socketError };
  // Interim answers (100 Continue) come before the real one.
  let start = 0;
  while (/^HTTP\/1\.[01] 1(?!01)\d\d/.test(raw.subarray(start, start + 12).toString('latin1')) && raw.indexOf('\r\n\r\n', start) !== -1) {
    start = raw.indexOf('\r\n\r\n', start) + 4;
  }
  raw = raw.subarray(start);
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return answer;
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  if (!status) return answer;
  answer.status = Number(status[1]);
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) answer.headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(end + 4);
  answer.body = answer.headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : rest;
  return answer;
}

/**
 * Why an answer's body does not match its framing: a `content-length` that counts other bytes than arrived
 * before the server closed (a client that keeps its connection would wait for them, or read the next answer
 * from them). Empty when it matches, or the answer has no such length (chunked, no status, HEAD, 1xx/204/304).
 */
export function checkFraming(request: RawRequest, answer: RawAnswer): string[] {
  const declared = answer.headers['content-length'];
  const { status } = answer;
  if (status === undefined || declared === undefined || answer.headers['transfer-encoding'] !== undefined) return [];
  if (status < 200 || status === 204 || status === 304 || String(request.head).startsWith('HEAD ')) return [];
  return Number(declared) === answer.body.length ? [] : [`${status} content-length ${declared} frames ${answer.body.length} body bytes`];
}

/** Joins the chunks of a chunked body (a cut body keeps what arrived whole). */
function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** A request head: request line plus header lines, joined with CRLF (no trailing blank line). */
export function formatHead(method: string, target: string, headers: [string, string][]): string {
  return [`${method} ${target} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`)].join('\r\n');
}
