import { PassThrough } from 'node:stream';
import { getQuery, sendStream, setResponseHeader } from 'h3';
import { getConsole } from './get-console.ts';
import type { ConsoleRoute } from './types.ts';

/** At most this many rows are sent first (the latest of those kept), before the live ones. */
const BACKLOG_ROWS = 200;
/** Bytes waiting for a slow reader past which its tail is ended. */
const MAX_BUFFERED = 1 << 20;

/**
 * `GET /admin/usage/tail`: the usage rows as NDJSON over a streamed response (a `fetch` reader, since the
 * key goes in the Authorization header: no EventSource). The latest rows first (`?backlog=0` for none),
 * then each new one as it is recorded, until the client goes away. Rows never carry a body.
 */
export const consoleTailRoute: ConsoleRoute = {
  method: 'GET',
  path: '/admin/usage/tail',
  handle(event, host) {
    const { feed } = getConsole(host);
    const backlog = getQuery(event).backlog === '0' ? 0 : BACKLOG_ROWS;
    const stream = new PassThrough();
    setResponseHeader(event, 'content-type', 'application/x-ndjson; charset=utf-8');
    setResponseHeader(event, 'cache-control', 'no-store');
    const rows = feed.listRows();
    for (const row of backlog ? rows.slice(-backlog) : []) stream.write(`${JSON.stringify(row)}\n`);
    // A line now, so the client knows the tail is open even when nothing happens.
    stream.write(`${JSON.stringify({ open: true })}\n`);
    const stop = feed.follow((row) => {
      // A reader that stopped reading is let go rather than buffered for without end.
      if (stream.writableLength > MAX_BUFFERED) end();
      else stream.write(`${JSON.stringify(row)}\n`);
    });
    function end() {
      stop();
      stream.end();
    }
    event.node.req.socket.once('close', end);
    stream.once('close', stop);
    return sendStream(event, stream);
  },
};
