/**
 * Which record a bench run rewrites: RESULTS.md after a whole measurement, BASELINE.md after a whole
 * `--baseline` comparison. A quick run is a smoke test and an `--only` run measures some rows, so neither is
 * evidence of the targets or of "no regression": they print and write neither (PROFILE.md names its own
 * scenarios, and `--profile` writes it in any run).
 */

/** The options of a run that decide its record. */
export interface RecordOptions {
  quick: boolean;
  only?: string[];
  baseline?: string;
}

/** The committed record a run rewrites, or undefined when it only prints. */
export function getRecordFile(options: RecordOptions): 'bench/RESULTS.md' | 'bench/BASELINE.md' | undefined {
  if (options.quick || options.only) return undefined;
  return options.baseline ? 'bench/BASELINE.md' : 'bench/RESULTS.md';
}
