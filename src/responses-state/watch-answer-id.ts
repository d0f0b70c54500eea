import { pipeline, Transform, type TransformCallback } from 'node:stream';
import { json, text } from 'node:stream/consumers';
import type { VendorResponse } from '../runtime/types.ts';
import { ID_HEAD_BYTES, readFirstEventId, readIdHead, readIdParsed } from './read-answer-id.ts';

/** The most bytes held to find an id: a first event or a JSON answer larger than this is not looked into. */
const MAX_HELD_BYTES = 8 * 1024 * 1024;

/**
 * A vendor's 2xx answer whose bytes pass on unchanged while the response id is read from them: the head
 * of a JSON answer (its first key; one parse only when it is not), or a stream's first event. `onId` is
 * called once with the id; the answer's end waits for the promise it returns (so a client that has the
 * whole answer can already use the id). Errors and aborts travel through as they would without the watch.
 */
export function watchAnswerId(response: VendorResponse, onId: (id: string) => Promise<void>): VendorResponse {
  const stream = String(response.headers['content-type'] ?? '').startsWith('text/event-stream');
  let held: Buffer[] | undefined = [];
  let heldBytes = 0;
  let noting: Promise<void> | undefined;
  const note = (id: string | null | undefined): void => {
    if (typeof id === 'string') noting = onId(id);
    held = undefined;
  };
  const look = (): void => {
    const head = Buffer.concat(held!, heldBytes);
    if (stream) {
      const id = readFirstEventId(head);
      if (id !== undefined) note(id);
    } else if (heldBytes >= ID_HEAD_BYTES) {
      // Not the first key: the whole body is kept for one parse at its end.
      const id = readIdHead(head);
      if (id !== undefined) note(id);
    }
    if (held && heldBytes > MAX_HELD_BYTES) held = undefined;
  };
  const watch = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (held) {
        held.push(chunk);
        heldBytes += chunk.length;
        look();
      }
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      if (held && heldBytes > 0 && !stream) {
        const body = Buffer.concat(held, heldBytes);
        note(readIdHead(body) ?? readIdParsed(body));
      }
      if (!noting) return done();
      noting.then(() => done(), () => done());
    },
  });
  pipeline(response.body, watch, () => undefined);
  const body = Object.assign(watch, { json: () => json(watch), text: () => text(watch) });
  return { ...response, body };
}
