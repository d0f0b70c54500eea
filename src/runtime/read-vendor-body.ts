import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { errors } from 'undici';
import { GatewayError } from '../errors.ts';
import { collectBody } from './collect-chunks.ts';
import type { BodyReading, VendorBody } from './types.ts';

/**
 * The largest answer read whole (a translated answer, a token count, an image task's envelope): an endless
 * body, or a small coded one that decodes to gigabytes, stops here instead of filling the memory.
 */
const MAX_WHOLE_BYTES = 128 * 1024 * 1024;

/**
 * A vendor body's whole text (UTF-8, a byte order mark dropped), as undici's `text()` reads it; a 502
 * `upstream_invalid_response` past 128 MiB (the rest is not read: the call is aborted).
 */
export function readWholeText(reading: BodyReading, vendorName: string): Promise<string> {
  return new Promise((resolve, reject) => {
    collectBody(reading, MAX_WHOLE_BYTES, (error, { chunks, size, ended }) => {
      if (error !== undefined) return reject(error);
      if (!ended) {
        reading.destroy();
        return reject(new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendorName}" answered more than ${MAX_WHOLE_BYTES / 1024 / 1024} MiB, more than the gateway reads whole.`));
      }
      const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      resolve(bytes.toString('utf8', bom ? 3 : 0));
    });
  });
}

/**
 * A vendor body as a Readable (with `json()` and `text()`), for the callers that stream it: it reads the
 * vendor only once it is read, pausing the reading when the stream is full. `json()` and `text()` of a body
 * not read yet take `readText` (the chunks collected without the stream).
 */
export function createBodyStream(reading: BodyReading, readText: () => Promise<string>): VendorBody {
  let started = false;
  const stream = new Readable({
    read: () => {
      if (started) return reading.resume();
      started = true;
      reading.read({
        onData: (chunk) => {
          if (!stream.push(chunk)) reading.pause();
        },
        onEnd: () => stream.push(null),
        onError: (error) => stream.destroy(error as Error),
      });
    },
    destroy: (error, callback) => {
      reading.destroy();
      callback(error ?? (stream.readableEnded ? null : new errors.RequestAbortedError()));
    },
  });
  const readOnce = (): Promise<string> => {
    if (started) return text(stream);
    started = true;
    return readText();
  };
  return Object.assign(stream, { json: async () => JSON.parse(await readOnce()) as unknown, text: readOnce });
}
