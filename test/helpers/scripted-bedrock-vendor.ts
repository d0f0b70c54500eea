import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { VendorCall } from '../fuzz/vendor-call.ts';

/**
 * One answer of the scripted Bedrock: a status, headers and body pieces (each written as its own read), then
 * the end, a reset (`cut`) or silence (`stall`). A `{credentials}` inside a text piece is replaced by every
 * credential the request carried (as a hostile vendor quoting them back would).
 */
export interface ScriptedAnswer {
  status: number;
  headers: Record<string, string>;
  pieces: (Buffer | string)[];
  ending: 'end' | 'cut' | 'stall';
}

/** A running scripted Bedrock: a real HTTP server on 127.0.0.1; `script` sets the answer of the next requests. */
export interface ScriptedBedrockVendor {
  url: string;
  script(answer: ScriptedAnswer): void;
  close(): Promise<void>;
}

/** Every credential a Bedrock request carries: the Bearer key or SigV4 header (key id), the session token, the URL. */
export function quoteBedrockCredentials(req: IncomingMessage): string {
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

/**
 * Starts a Bedrock runtime that answers every request (it checks no signature) with the scripted answer,
 * recording each call onto `calls` as hostile, so the fuzz checks know a vendor misbehaved.
 */
export async function startScriptedBedrockVendor(name: string, calls: VendorCall[]): Promise<ScriptedBedrockVendor> {
  let answer: ScriptedAnswer = { status: 500, headers: {}, pieces: [], ending: 'end' };
  const held = new Set<Duplex>();
  const server = createServer((req, res) => {
    const call: VendorCall = { vendor: name, hostile: true, method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers, complete: false, settled: false };
    calls.push(call);
    held.add(req.socket);
    res.on('close', () => (call.settled = true));
    const current = answer;
    req.resume().on('end', async () => {
      const credentials = quoteBedrockCredentials(req);
      call.status = current.status;
      if (holdsStreamError(current)) call.streamError = true;
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
    script: (next) => void (answer = next),
    close() {
      for (const socket of held) socket.destroy();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
