import type { IncomingMessage } from 'node:http';

/** Most bytes of a refused upload read and thrown away before the connection is closed anyway. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** Least time a client that is still uploading gets to read an early answer before its connection is closed. */
const GRACE_MS = 1000;

/**
 * Lets a client read an answer sent before its upload ended (401, 413, 415, ...): the rest of the body is
 * read and thrown away instead of closing the connection under the client (the kernel would reset it and
 * the client would see ECONNRESET instead of the answer). Draining stops at the end of the body; past
 * `deadline` (epoch ms; at least one second from now) or {@link DRAIN_LIMIT_BYTES} the connection is
 * closed. Does nothing once the body has been read in full.
 */
export function drainRequest(req: IncomingMessage, deadline: number): void {
  if (req.complete || req.destroyed) return;
  let drained = 0;
  const { socket } = req;
  const close = () => {
    finish();
    socket.destroy();
  };
  const timer = setTimeout(close, Math.max(GRACE_MS, deadline - Date.now()));
  timer.unref();
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) close();
  };
  const finish = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    socket.off('close', finish);
  };
  req.on('data', onData);
  req.once('end', finish);
  socket.once('close', finish);
  req.resume();
}
