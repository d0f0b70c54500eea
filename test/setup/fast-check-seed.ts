/**
 * The seed of every property test (fast-check) in `npm test`: fixed, so that a run of the suite is the same
 * run on every machine and at every commit, and a failure replays as it was. `FUZZ_LONG=1` (which `npm run
 * fuzz` sets) leaves the seeds random, to explore; `FUZZ_SEED` picks one. The fuzz suites' own runs read the
 * same variables (test/fuzz/fuzz-run.ts).
 */
import fc from 'fast-check';

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_LONG === '1' ? undefined : 20261124;
if (seed !== undefined) fc.configureGlobal({ seed });
