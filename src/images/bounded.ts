import { GatewayError } from '../errors.ts';

/**
 * Runs `work` for every item with at most `limit` at a time and answers the results in item order.
 * The first failure rejects at once and aborts the signal handed to the other runs (queued items
 * never start); `signal` (the request's) aborting stops it too.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  work: (item: T, index: number, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const failed = new AbortController();
  const shared = AbortSignal.any([signal, failed.signal]);
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      if (shared.aborted) throw new GatewayError(499, 'client_closed_request', 'The request was cancelled.');
      const index = next++;
      results[index] = await work(items[index], index, shared);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  } catch (error) {
    failed.abort();
    throw error;
  }
  return results;
}
