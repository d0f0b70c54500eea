import WebSocket from 'ws';
import { GatewayError } from '../errors.ts';
import type { Redactor } from './redact.ts';

/** Where a realtime session goes: built by the caller's `authorize` (vendor URL and auth headers). */
export interface RealtimeTarget {
  /** ws:, wss:, http: or https: URL of the vendor's realtime endpoint, query included. */
  upstreamUrl: string;
  /** Headers of the vendor handshake (its auth, protocol headers). */
  headers: Record<string, string>;
  /** Removes the gateway's secrets from the vendor's error events (absent: frames pass as they are). */
  redactor?: Redactor;
  /** The request id answered in the client's 101 (`x-request-id`), as every other answer carries one. */
  requestId?: string;
}

/** A frame received before the relay took over. */
export interface EarlyFrame {
  data: WebSocket.RawData;
  isBinary: boolean;
}

/** An open vendor WebSocket and what it sent before the relay attached. */
export interface UpstreamConnection {
  socket: WebSocket;
  /** Stops buffering; returns the frames (and the close, if any) that arrived since the handshake. */
  takeOver(): { frames: EarlyFrame[]; closed?: { code: number; reason: Buffer } };
}

/** Options of {@link openUpstream}. */
export interface UpstreamOptions {
  protocols: string[];
  timeoutMs: number;
  maxPayload?: number;
  signal?: AbortSignal;
}

/**
 * Opens the vendor WebSocket. Frames a vendor sends right after its handshake (a session greeting) are
 * buffered until `takeOver`, so none is lost. Rejects with GatewayError: 502 `upstream_unreachable`,
 * 504 `upstream_timeout`, 502 `upstream_auth_failed` when the vendor rejects the gateway's credentials,
 * or the vendor's own status for another refusal.
 */
export function openUpstream(target: RealtimeTarget, options: UpstreamOptions): Promise<UpstreamConnection> {
  return new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(target.upstreamUrl, options.protocols, {
        headers: target.headers,
        perMessageDeflate: false,
        followRedirects: false,
        maxPayload: options.maxPayload,
      });
    } catch (cause) {
      reject(new GatewayError(502, 'upstream_unreachable', 'The vendor realtime URL is invalid.', { cause }));
      return;
    }
    const frames: EarlyFrame[] = [];
    let closed: { code: number; reason: Buffer } | undefined;
    let settled = false;
    const onMessage = (data: WebSocket.RawData, isBinary: boolean) => frames.push({ data, isBinary });
    const onClose = (code: number, reason: Buffer) => {
      closed = { code, reason };
      fail(new GatewayError(502, 'upstream_unreachable', 'The vendor closed the realtime connection.'));
    };
    const fail = (error: GatewayError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.terminate();
      reject(error);
    };
    const onAbort = () =>
      fail(new GatewayError(499, 'client_closed_request', 'The client went away during the handshake.'));
    const timer = setTimeout(
      () => fail(new GatewayError(504, 'upstream_timeout', 'The vendor did not accept the realtime connection in time.')),
      options.timeoutMs,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    // Stays for the socket's life: a vendor socket error must never crash the process ('close' follows).
    socket.on('error', (cause) => {
      fail(new GatewayError(502, 'upstream_unreachable', 'The vendor realtime endpoint is unreachable.', { cause }));
    });
    socket.on('unexpected-response', (_req, res) => {
      res.resume();
      fail(refusal(res.statusCode ?? 502));
    });
    socket.on('message', onMessage);
    socket.on('close', onClose);
    socket.once('open', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        socket,
        takeOver() {
          socket.off('message', onMessage);
          socket.off('close', onClose);
          return { frames, closed };
        },
      });
    });
  });
}

function refusal(status: number): GatewayError {
  if (status === 401 || status === 403) {
    return new GatewayError(502, 'upstream_auth_failed', 'The vendor rejected the gateway credentials.');
  }
  const code = status >= 400 && status <= 599 ? status : 502;
  return new GatewayError(code, 'upstream_error', `The vendor refused the realtime connection (HTTP ${status}).`);
}
