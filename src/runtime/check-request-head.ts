import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors.ts';

/**
 * Refuses, in the caller's style, what Node would otherwise answer itself with an empty body: an HTTP/1.1
 * request without `Host` (400, RFC 9112 §3.2) and an `Expect` other than `100-continue` (417). The server
 * is created with `requireHostHeader: false` and routes `checkExpectation` to the request listener, so
 * both reach this check.
 */
export function checkRequestHead(req: IncomingMessage): void {
  const { headers } = req;
  if (headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
    throw new GatewayError(400, 'missing_host', 'An HTTP/1.1 request must carry a Host header.');
  }
  const expect = headers.expect;
  if (expect !== undefined && expect.toLowerCase() !== '100-continue') {
    throw new GatewayError(417, 'expectation_failed', 'The only expectation the gateway meets is "Expect: 100-continue".');
  }
}
