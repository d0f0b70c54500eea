import type { ServerResponse } from 'node:http';
import type { Admission } from './limiter.ts';

/**
 * Frees an admission's concurrency slot when the response closes: when it has been sent in full, or at
 * once when the client disconnects mid-request or mid-stream.
 */
export function releaseOnClose(admission: Admission, res: ServerResponse): void {
  if (res.closed || res.destroyed) {
    admission.release();
    return;
  }
  res.once('close', () => admission.release());
}
