import type { IncomingMessage, ServerResponse } from 'node:http';

/** Most bytes of a refused upload read and thrown away before the connection is closed anyway. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** Least time a client that is still uploading gets to read an early answer before its connection is closed. */
const GRACE_MS = 1000;

/**
 * Lets a client read an answer sent before its upload ended (401, 408, 413, 415, ...). Call it right after
 * the answer was handed to `res` with `connection: close`: Node would close the socket as soon as the
 * answer is written, and closing with unread bytes makes the kernel reset the connection, so the client
 * sees ECONNRESET instead of the answer. Here the socket is only half-closed and the rest of the body is
 * read and thrown away until the client hangs up or the body ends; past `deadline` (epoch ms, at least one
 * second from now) or {@link DRAIN_LIMIT_BYTES} the connection is closed anyway. Does nothing once the
 * body has been read in full.
 */
export function drainRequest(req: IncomingMessage, res: ServerResponse, deadline: number): void {
  if (req.complete || req.destroyed) return;
  const { socket } = req;
  let drained = 0;
  const close = () => {
    clearTimeout(timer);
    req.off('data', onData);
    socket.destroy();
  };
  const timer = setTimeout(close, Math.max(GRACE_MS, deadline - Date.now()));
  timer.unref();
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) close();
  };
  // Node ends the socket once the answer is written (`destroySoon`): keep its read side open instead.
  res.once('finish', () => socket.removeListener('finish', socket.destroy));
  req.on('data', onData);
  req.once('end', close);
  socket.once('close', close);
  req.resume();
}
