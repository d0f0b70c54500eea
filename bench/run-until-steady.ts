/**
 * The method says "more or longer rounds until they do": a scenario whose judged rows spread more
 * than ±10% between rounds is measured again, whole, with rounds twice as long, until its rows are within
 * the limit or the lengthenings allowed run out. The last measurement is the one reported (not the best
 * of them: a quieter second run is kept only because it was longer), and a note says what was rerun.
 */
import { defineRows, type LabelValues, type ResultRow } from './report.ts';
import { runScenario } from './run-scenario.ts';
import type { BenchContext, Scenario } from './scenarios/types.ts';
import { MAX_SPREAD } from './spread-check.ts';

/** How many times a run may double its rounds' length by default (10 s, 20 s, 40 s). */
export const DEFAULT_LENGTHENINGS = 2;

/** The widest spread of the rows `isJudged` picks (0 when none is judged). */
export function getWidestSpread(rows: ResultRow[], isJudged: (row: ResultRow) => boolean): number {
  let widest = 0;
  for (const row of rows.filter(isJudged)) widest = Math.max(widest, row.baseSpread ?? 0, row.subjectSpread);
  return widest;
}

/** What one scenario measured, and the note to print when it had to be measured again. */
export interface SteadyRows {
  rows: ResultRow[];
  note?: string;
}

const pct = (value: number) => `±${Math.round(value * 100)}%`;

/**
 * Runs `scenario`, then again with rounds twice as long while a judged row spreads more than ±10%, at most
 * `lengthenings` times. Rounds of fixed size (a scenario that does not read `ctx.roundS`) are not rerun.
 */
export async function runUntilSteady(
  ctx: BenchContext,
  scenario: Scenario,
  options: { lengthenings: number; labels: LabelValues; isJudged: (row: ResultRow) => boolean; log: (line: string) => void },
): Promise<SteadyRows> {
  let roundS = ctx.roundS;
  let rows = defineRows(await runScenario(ctx, scenario, options.log), options.labels);
  const spreads = [getWidestSpread(rows, options.isJudged)];
  for (let left = options.lengthenings; left > 0 && spreads.at(-1)! > MAX_SPREAD && scenario.lengthens; left--) {
    roundS *= 2;
    options.log(`  widest judged spread ${pct(spreads.at(-1)!)} is over ${pct(MAX_SPREAD)}: measuring again with rounds of ${roundS} s`);
    rows = defineRows(await runScenario({ ...ctx, roundS }, scenario, options.log), options.labels);
    spreads.push(getWidestSpread(rows, options.isJudged));
  }
  if (spreads.length === 1) return { rows };
  const history = spreads.map((spread, i) => `${pct(spread)} with ${ctx.roundS * 2 ** i} s rounds`).join(', then ');
  return { rows, note: `${scenario.title}: widest judged spread ${history}; the table shows the last (${roundS} s rounds).` };
}
