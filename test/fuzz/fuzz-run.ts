import fc from 'fast-check';

/**
 * Settings of a fuzz run, from the environment:
 * - `npm test`: the fixed seed below and each property's bounded number of runs;
 * - `npm run fuzz` (`FUZZ_LONG=1`): a random seed and 10 times the runs;
 * - `FUZZ_SEED`, `FUZZ_RUNS`, `FUZZ_PATH` override (replay a failure with the seed and path it printed);
 * - `FUZZ_COLLECT=1`: run every case and report every broken promise, grouped, instead of stopping at the first;
 * - `FUZZ_SHRINK=1`: shrink a failing case (slow against a live gateway, so off by default).
 */
export function getFuzzSettings(defaultRuns: number) {
  const long = process.env.FUZZ_LONG === '1';
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : long ? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0 : 20261124;
  const numRuns = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : long ? defaultRuns * 10 : defaultRuns;
  return { seed, numRuns, path: process.env.FUZZ_PATH, collect: process.env.FUZZ_COLLECT === '1', shrink: process.env.FUZZ_SHRINK === '1', long };
}

/** The timeout a fuzz test needs for `runs` cases of about `caseMs` each (at least 20 s). */
export function getFuzzTimeout(defaultRuns: number, caseMs: number): number {
  const settings = getFuzzSettings(defaultRuns);
  return settings.collect ? 1_800_000 : Math.max(20_000, settings.numRuns * caseMs + 15_000);
}

/** The first line of a problem with ids and numbers blurred, so that one cause groups its cases. */
function getProblemKind(problem: string): string {
  return problem.split(':')[0].replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').slice(0, 160);
}

/**
 * Runs `check` on `defaultRuns` generated values (see {@link getFuzzSettings}); each call returns the promises
 * the case broke. Throws naming the seed and path that replay the first failing case, its input, and what broke
 * (every failing case, grouped by kind, with `FUZZ_COLLECT=1`).
 */
export async function runFuzz<T>(name: string, arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<string[]>, defaultRuns: number): Promise<void> {
  const settings = getFuzzSettings(defaultRuns);
  if (settings.long) console.log(`[fuzz] ${name}: seed ${settings.seed}, ${settings.numRuns} runs`);
  const collected = new Map<string, { count: number; example: string; input: string }>();
  const property = fc.asyncProperty(arbitrary, async (value) => {
    const problems = await check(value);
    if (problems.length === 0) return;
    if (!settings.collect) throw new Error(problems.join('\n'));
    for (const problem of problems) {
      const kind = getProblemKind(problem);
      const entry = collected.get(kind) ?? { count: 0, example: problem, input: fc.stringify(value).slice(0, 600) };
      entry.count++;
      collected.set(kind, entry);
    }
  });
  const details = await fc.check(property, { seed: settings.seed, numRuns: settings.numRuns, path: settings.path, endOnFailure: !settings.shrink });
  if (details.failed) {
    const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath}`;
    const input = fc.stringify(details.counterexample?.[0]).slice(0, 2000);
    const message = `${name} failed (replay: ${replay})\ninput: ${input}\n${(details.errorInstance as Error)?.message ?? String(details.errorInstance)}`;
    console.error(`[fuzz] ${message}`);
    throw new Error(message);
  }
  if (collected.size > 0) {
    const lines = [...collected.values()].map((e) => `- ${e.count}x ${e.example.slice(0, 400)}\n    input: ${e.input}`);
    throw new Error(`${name}: ${collected.size} kinds of broken promise (seed ${settings.seed})\n${lines.join('\n')}`);
  }
}
