import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { VendorCall } from '../fuzz/vendor-call.ts';

/**
 * One answer of a scripted vendor: a status, headers and body pieces (each written as its own read), then
 * the end, a reset (`cut`) or silence (`stall`). A `{credentials}` inside a text piece is replaced by every
 * credential the request carried (as a hostile vendor quoting them back would).
 */
export interface ScriptedAnswer {
  status: number;
  headers: Record<string, string>;
  pieces: (Buffer | string)[];
  ending: 'end' | 'cut' | 'stall';
}

/** What a script may answer by: the request's target and body. */
export interface ScriptedRequest {
  url: string;
  body: Buffer;
}

/** An answer, or a function of the request choosing one (a stream for a streamed request, say). */
export type Script = ScriptedAnswer | ((request: ScriptedRequest) => ScriptedAnswer);

/** A running scripted vendor: a real HTTP server on 127.0.0.1; `script` sets the answer of the next requests. */
export interface ScriptedVendor {
  url: string;
  script(next: Script): void;
  close(): Promise<void>;
}

/** `bytes` cut at the given fractions of their length into pieces, each written to the socket as its own read. */
export function splitPieces(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) pieces.push(bytes.subarray(from, point));
    from = Math.max(from, point);
  }
  return pieces;
}

/** Every credential a Bedrock request carries: the Bearer key or SigV4 header (key id), the session token, the URL. */
function quoteBedrockCredentials(req: IncomingMessage): string {
  const { authorization, 'x-amz-security-token': token } = req.headers;
  return `credentials ${authorization ?? ''} token=${token ?? ''} at ${req.url}`;
}

/**
 * Whether a 2xx event stream holds an exception or error message: only those carry the `:exception-type`
 * or `:error-code` header (a message's header names are written as they are, so the bytes show them).
 */
function holdsStreamError(answer: ScriptedAnswer): boolean {
  if (answer.status >= 300) return false;
  const bytes = Buffer.concat(answer.pieces.map((piece) => Buffer.from(piece))).toString('latin1');
  return bytes.includes(':exception-type') || bytes.includes(':error-code');
}

function fill(piece: Buffer | string, credentials: string): Buffer {
  return typeof piece === 'string' ? Buffer.from(piece.replaceAll('{credentials}', credentials)) : piece;
}

/** What a scripted vendor knows of its protocol: the credentials a request carries, errors inside a 2xx answer. */
export interface ScriptedProtocol {
  /** Every credential the request carries, as text a hostile vendor may quote back (`{credentials}`). */
  quoteCredentials(req: IncomingMessage): string;
  /** Whether a 2xx answer carries an error of the vendor's own (a 4xx from the gateway is then the vendor's). */
  holdsStreamError(answer: ScriptedAnswer): boolean;
}

/** Bedrock's credentials and in-stream errors. */
export const SCRIPTED_BEDROCK: ScriptedProtocol = { quoteCredentials: quoteBedrockCredentials, holdsStreamError };

/**
 * The credentials and in-answer errors of a JSON protocol (OpenAI, Anthropic, Gemini): the key in any of their
 * headers or the query; an answer naming an `"error"` anywhere may be the vendor refusing inside a 200.
 */
export const SCRIPTED_JSON: ScriptedProtocol = {
  quoteCredentials: (req) => `credentials ${req.headers.authorization ?? ''} ${req.headers['x-api-key'] ?? ''} ${req.headers['x-goog-api-key'] ?? ''} at ${req.url}`,
  holdsStreamError: (answer) => answer.status < 300 && answer.pieces.some((piece) => Buffer.from(piece).includes('"error"')),
};

/**
 * Starts a vendor that answers every request (on any path, checking no credential) with the scripted answer,
 * recording each call onto `calls` as hostile, so the fuzz checks know a vendor misbehaved.
 */
export async function startScriptedVendor(name: string, calls: VendorCall[], protocol: ScriptedProtocol): Promise<ScriptedVendor> {
  let script: Script = { status: 500, headers: {}, pieces: [], ending: 'end' };
  const held = new Set<Duplex>();
  const server = createServer((req, res) => {
    const call: VendorCall = { vendor: name, hostile: true, method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers, complete: false, settled: false };
    calls.push(call);
    held.add(req.socket);
    res.on('close', () => (call.settled = true));
    const chosen = script;
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk)).on('end', async () => {
      const current = typeof chosen === 'function' ? chosen({ url: req.url ?? '/', body: Buffer.concat(body) }) : chosen;
      const credentials = protocol.quoteCredentials(req);
      call.status = current.status;
      if (protocol.holdsStreamError(current)) call.streamError = true;
      res.writeHead(current.status, current.headers);
      for (const piece of current.pieces) {
        res.write(fill(piece, credentials));
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (current.ending === 'end') res.end(() => (call.complete = true));
      else if (current.ending === 'cut') setTimeout(() => res.destroy(), 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    script: (next) => void (script = next),
    close() {
      for (const socket of held) socket.destroy();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
