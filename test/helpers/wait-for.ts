/** Polls `check` every 5 ms until it holds; rejects after `timeoutMs` (default 5 s). */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Polls `read` every `intervalMs` until it is above 0 and did not change over one interval: e.g. the bytes a
 * vendor wrote, once backpressure from a client that does not read has stopped it.
 */
export async function waitForStall(read: () => number, intervalMs = 250): Promise<void> {
  let last = -1;
  while (read() === 0 || read() !== last) {
    last = read();
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
