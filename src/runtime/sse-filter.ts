import { Transform, type TransformCallback } from 'node:stream';

const EMPTY_CHOICES = '"choices":[]';

/**
 * Removes whole SSE events for which `drop(json)` is true, passing every other byte through as it
 * arrives (an event is held back only until its blank line). Only events mentioning an empty choices
 * list are parsed. Used to hide usage-only events the gateway asked for on the client's behalf.
 */
export function createSseEventFilter(drop: (json: unknown) => boolean): Transform {
  let pending = '';
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const text = pending + chunk.toString('utf8');
      let out = '';
      let start = 0;
      for (;;) {
        const end = text.indexOf('\n\n', start);
        if (end === -1) break;
        const event = text.slice(start, end + 2);
        if (!event.includes(EMPTY_CHOICES) || !isDropped(event, drop)) out += event;
        start = end + 2;
      }
      pending = text.slice(start);
      done(null, out);
    },
    flush(done: TransformCallback) {
      done(null, pending);
    },
  });
}

function isDropped(event: string, drop: (json: unknown) => boolean): boolean {
  const data = event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .join('\n');
  try {
    return drop(JSON.parse(data));
  } catch {
    return false;
  }
}
