import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError } from '../errors.ts';

/** A rendered error response: what the caller's `renderError` returns. */
export interface RenderedError {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;
const LINE_BREAKS = /[\r\n]/g;
/** Subprotocol names that carry a secret (e.g. `<vendor>-insecure-api-key.<key>`): never forwarded. */
const CREDENTIAL_PROTOCOL = /api[-_.]?key|token|secret|bearer|password|authorization/i;

/**
 * Checks the parts of a WebSocket upgrade request that `ws` would otherwise reject only after the
 * vendor connection was opened. Throws GatewayError 400 (405 for a method other than GET).
 */
export function checkUpgradeRequest(req: IncomingMessage): void {
  if (req.method !== 'GET') throw new GatewayError(405, 'method_not_allowed', 'A WebSocket upgrade must use GET.');
  const upgrade = req.headers.upgrade;
  const key = req.headers['sec-websocket-key'];
  const version = req.headers['sec-websocket-version'];
  if (upgrade === undefined || upgrade.toLowerCase() !== 'websocket' || key === undefined || !WEBSOCKET_KEY.test(key)) {
    throw new GatewayError(400, 'invalid_upgrade', 'The request is not a valid WebSocket upgrade.');
  }
  if (version !== '13' && version !== '8') {
    throw new GatewayError(400, 'invalid_upgrade', 'Unsupported Sec-WebSocket-Version (expected 13).', {
      headers: { 'sec-websocket-version': '13, 8' },
    });
  }
}

/** The subprotocols a client offered, in order (`Sec-WebSocket-Protocol`, comma separated). */
export function listClientProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  if (header === undefined) return [];
  const protocols: string[] = [];
  for (const part of header.split(',')) {
    const protocol = part.trim();
    if (protocol !== '' && !protocols.includes(protocol)) protocols.push(protocol);
  }
  return protocols;
}

/** True for a subprotocol name that carries a credential (an API key or token) rather than a protocol. */
export function isCredentialProtocol(protocol: string): boolean {
  return CREDENTIAL_PROTOCOL.test(protocol);
}

/**
 * The subprotocol to answer the client with: the vendor's choice when the client offered it, else the
 * first non-credential protocol offered (browsers fail a handshake that answers none), else none.
 */
export function selectClientProtocol(offered: Set<string>, vendorChoice: string): string | false {
  if (vendorChoice !== '' && offered.has(vendorChoice)) return vendorChoice;
  for (const protocol of offered) if (!isCredentialProtocol(protocol)) return protocol;
  return false;
}

/** Answers an upgrade request with a plain HTTP response on its socket, then destroys the socket. */
export function writeHttpError(socket: Duplex, rendered: RenderedError): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, headers, body } = rendered;
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nconnection: close\r\n`;
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === 'content-length' || name.toLowerCase() === 'connection') continue;
    head += `${name}: ${String(headers[name]).replace(LINE_BREAKS, ' ')}\r\n`;
  }
  head += `content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
  socket.end(head + body, () => socket.destroy());
}
