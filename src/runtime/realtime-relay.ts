import WebSocket from 'ws';
import { hasErrorField } from './json-usage.ts';
import type { Redactor } from './redact.ts';
import type { UpstreamConnection } from './realtime-upstream.ts';

/** How a relayed session ended. */
export interface RelayResult {
  /** Close code the client side ended with (1005: none given, 1006: abnormal). */
  clientCode: number;
  /** Close code the vendor side ended with. */
  vendorCode: number;
  framesFromClient: number;
  framesFromVendor: number;
}

/** Above this many bytes queued towards one side, reading from the other side pauses. */
const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 1024 * 1024;
/** Sent to the client when the vendor connection died without a close frame (IANA: Bad Gateway). */
const BAD_GATEWAY = 1014;
/** Sent to the vendor when the client connection died without a close frame. */
const GOING_AWAY = 1001;

/**
 * Relays frames between the client and the vendor in both directions, text and binary kept as they
 * are (the vendor's error events without the secrets of `redactor`), with backpressure; when one side
 * closes, closes the other (same code when it is a valid one). Resolves once both sides are closed; never rejects.
 */
export function relayFrames(client: WebSocket, upstream: UpstreamConnection, redactor?: Redactor): Promise<RelayResult> {
  const vendor = upstream.socket;
  const result: RelayResult = { clientCode: 1006, vendorCode: 1006, framesFromClient: 0, framesFromVendor: 0 };
  return new Promise((resolve) => {
    let open = 2;
    const ended = () => {
      if (--open === 0) resolve(result);
    };
    const toClient = createForwarder(vendor, client, () => result.framesFromVendor++, redactor?.forms.length ? redactor : undefined);
    const toVendor = createForwarder(client, vendor, () => result.framesFromClient++);
    const onVendorClose = (code: number, reason: Buffer) => {
      result.vendorCode = code;
      closePeer(client, code, reason, BAD_GATEWAY);
      ended();
    };
    client.on('error', () => undefined); // 'close' follows every error
    client.on('message', toVendor);
    client.on('close', (code, reason) => {
      result.clientCode = code;
      closePeer(vendor, code, reason, GOING_AWAY);
      ended();
    });

    const { frames, closed } = upstream.takeOver();
    for (const frame of frames) toClient(frame.data, frame.isBinary);
    if (closed !== undefined) {
      onVendorClose(closed.code, closed.reason);
      return;
    }
    vendor.on('message', toClient);
    vendor.on('close', onVendorClose);
  });
}

/**
 * A 'message' listener sending each frame on to `to`, pausing `from` while `to` is backed up; with a
 * `redactor`, a text frame holding an `"error"` field (one byte search per frame) is redacted first.
 */
function createForwarder(from: WebSocket, to: WebSocket, count: () => void, redactor?: Redactor) {
  let paused = false;
  const onSent = () => {
    if (paused && to.bufferedAmount < LOW_WATER) {
      paused = false;
      from.resume();
    }
  };
  return (data: WebSocket.RawData, isBinary: boolean) => {
    if (to.readyState !== WebSocket.OPEN) return;
    count();
    if (redactor && !isBinary && Buffer.isBuffer(data) && hasErrorField(data)) data = redactor.redactBytes(data);
    to.send(data, { binary: isBinary }, onSent);
    if (!paused && to.bufferedAmount > HIGH_WATER) {
      paused = true;
      from.pause();
    }
  };
}

/** Closes `peer` after its counterpart closed with `code` (`abnormal` replaces 1006, no close frame). */
function closePeer(peer: WebSocket, code: number, reason: Buffer, abnormal: number): void {
  peer.resume(); // a paused socket could not read the closing handshake's answer
  if (peer.readyState === WebSocket.CONNECTING) {
    peer.terminate();
    return;
  }
  if (peer.readyState !== WebSocket.OPEN) return;
  if (isSendableCode(code)) peer.close(code, reason);
  else if (code === 1005) peer.close();
  else peer.close(code === 1006 ? abnormal : 1011);
}

function isSendableCode(code: number): boolean {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}
