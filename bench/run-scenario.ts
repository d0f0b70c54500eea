/**
 * Runs one scenario: starts its pair (the shared floor and gateway by default), warms each side up, then
 * interleaves rounds (reference, gateway, reference, gateway...). Failed requests break the harness in
 * quick mode and become notes in full mode.
 */
import type { ScenarioRounds } from './report.ts';
import type { BenchContext, Measured, Scenario, ScenarioPair, Side } from './scenarios/types.ts';

/** An error that means the harness itself is broken (quick mode exits 1 on it). */
export class HarnessError extends Error {}

function checkRound(ctx: BenchContext, scenario: Scenario, side: Side, measured: Measured): void {
  const failed = (measured.non2xx ?? 0) + (measured.errors ?? 0);
  if (failed === 0) return;
  const text = `${scenario.id}: ${side.label} answered ${measured.non2xx ?? 0} non-2xx and had ${measured.errors ?? 0} errors out of ${measured.requests ?? '?'} requests in a round.`;
  if (scenario.mustSucceed && ctx.quick) throw new HarnessError(text);
  if (!ctx.notes.includes(text)) ctx.notes.push(text);
}

/** Runs a scenario's warm-up and interleaved rounds; `log` receives one line per round. */
export async function runScenario(ctx: BenchContext, scenario: Scenario, log: (line: string) => void): Promise<ScenarioRounds> {
  const pair: ScenarioPair = scenario.start ? await scenario.start(ctx) : { base: ctx.floor, subject: ctx.gateway };
  const sides = [pair.base, pair.subject].filter((s): s is Side => s !== undefined);
  const measured = new Map<Side, Measured[]>(sides.map((s) => [s, []]));
  try {
    if (scenario.warmup) for (const side of sides) await scenario.warmup(ctx, side);
    const rounds = scenario.rounds?.(ctx) ?? ctx.rounds;
    for (let round = 1; round <= rounds; round++) {
      for (const side of sides) {
        const values = await scenario.measure(ctx, side);
        checkRound(ctx, scenario, side, values);
        measured.get(side)!.push(values);
        const shown = scenario.metrics
          .filter((m) => values[m.id] !== undefined)
          .map((m) => `${m.id}=${values[m.id].toFixed(m.digits ?? 0)}`)
          .join(' ');
        log(`  round ${round}/${rounds} ${side.label}: ${shown}`);
      }
    }
  } finally {
    await pair.close?.();
  }
  return {
    metrics: scenario.metrics,
    baseLabel: pair.base?.label,
    subjectLabel: pair.subject.label,
    base: pair.base ? measured.get(pair.base)! : [],
    subject: measured.get(pair.subject)!,
  };
}
