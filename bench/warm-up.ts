/**
 * Warm-up until the proxy's cost has settled: a fresh process spends more CPU per request while V8 compiles
 * its hot code and sizes its heap (a gateway run with --trace-gc: 39 scavenges and 3 mark-compacts in its
 * first 8,000 requests, at 496 µs each, then 21 and 0-1 per 8,000 at 230-300 µs), and a gateway has more code
 * and a larger heap to settle than the floor. A warm-up of a fixed few seconds on a busy machine ended before
 * that, and the first measured round of the gateway then cost 1.8x the second.
 */

/** Warm-up rounds whose costs (CPU per request, or a latency) are within this share of each other: settled. */
export const SETTLED_SPREAD = 0.1;
/** Most warm-up rounds, settled or not (a machine busy with other work may never let them agree). */
export const MAX_WARMUP_ROUNDS = 6;

/**
 * Runs warm-up rounds (`round` returns its cost: CPU per request, or a latency such as a p50) until two in a
 * row agree within {@link SETTLED_SPREAD}, or `maxRounds` have run; returns each round's cost.
 */
export async function warmUntilSettled(round: () => Promise<number>, maxRounds = MAX_WARMUP_ROUNDS): Promise<number[]> {
  const costs: number[] = [];
  while (costs.length < maxRounds) {
    costs.push(await round());
    if (costs.length >= 2 && isSettled(costs[costs.length - 2], costs[costs.length - 1])) break;
  }
  return costs;
}

function isSettled(previous: number, latest: number): boolean {
  if (!(previous > 0) || !(latest > 0)) return false;
  return Math.abs(latest - previous) <= SETTLED_SPREAD * Math.min(previous, latest);
}
