/** Requests and tokens second by second over the last minute: what "last minute" reads, to the second. */
export interface SecondRing {
  /** The second each slot counts (seconds since the epoch); -1 when none. */
  seconds: Float64Array;
  requests: Float64Array;
  tokens: Float64Array;
}

/** An empty ring of 60 seconds. */
export function createSecondRing(): SecondRing {
  return { seconds: new Float64Array(60).fill(-1), requests: new Float64Array(60), tokens: new Float64Array(60) };
}

/**
 * Counts one request of `tokens` at second `secondOfMinute` (0 to 59) of `minute`: O(1), no allocation (small
 * integers as arguments, never a boxed time). A second older than the ring holds is dropped.
 */
export function addToSecondRing(ring: SecondRing, minute: number, secondOfMinute: number, tokens: number): void {
  const second = minute * 60 + secondOfMinute;
  const slot = secondOfMinute;
  if (ring.seconds[slot] !== second) {
    if (ring.seconds[slot] > second) return;
    ring.seconds[slot] = second;
    ring.requests[slot] = 0;
    ring.tokens[slot] = 0;
  }
  ring.requests[slot] += 1;
  ring.tokens[slot] += tokens;
}

/** The requests (or tokens) of the 60 seconds ending with `nowSecond`. */
export function sumSecondRing(ring: SecondRing, nowSecond: number, field: 'requests' | 'tokens'): number {
  let sum = 0;
  for (let slot = 0; slot < 60; slot++) if (ring.seconds[slot] > nowSecond - 60 && ring.seconds[slot] <= nowSecond) sum += ring[field][slot];
  return sum;
}
