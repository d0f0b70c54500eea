/**
 * `npm run bench`: the gateway as deployed (request log at info to a file, limits on the key) against the
 * bare floor proxy, both in front of a static fast vendor, scenario by scenario, in interleaved rounds;
 * first checks the vendor serves at least 1.3x what the floor forwards, then prints medians, ratios, the
 * issue's targets and whether the spread meets the method, and rewrites bench/RESULTS.md after a full run.
 *
 *   npm run bench                       full run (warm-up rounds of 3 s until the CPU per request settles, 5 rounds
 *                                       of 10 s), writes bench/RESULTS.md
 *   npm run bench -- --quick            smoke test: 1 round of ~1 s, small counts, writes nothing
 *   npm run bench -- --only chat-c64,stream-ttfb   some scenarios only: writes no RESULTS.md nor BASELINE.md
 *                                       (a partial run is no evidence of either); --profile still writes PROFILE.md
 *                                       (a run with chat-c64 also profiles a fresh floor and gateway under it
 *                                       afterwards and prints the cost per request by stage; RESULTS.md has it)
 *   npm run bench -- --quiet-rows       also the quiet gateway (log silent, no limits) at c=64, reference only
 *   --skip-headroom (with --only)       skip the vendor headroom check (about 2 min in a full run); ratios unverified
 *   npm run bench -- --profile DIR      also `--cpu-prof` the shared floor and gateway into DIR, print their top
 *                                       self-time functions and their time by request stage (bench/PROFILE.md)
 *   npm run bench -- --baseline REF     the gateway at commit REF (bundled from a temporary worktree) as the
 *                                       reference instead of the floor, both as deployed: the "no regression"
 *                                       check of a change; writes bench/BASELINE.md (with --quick or --only: nothing)
 *   --lengthen N                        times a scenario whose judged rows spread over ±10% is measured again
 *                                       with rounds twice as long (default 2 in a full run; 0 with --quick)
 *   --rounds N, --duration S, --warmup S, --load wrk|autocannon
 *
 * Exit code 2 when the vendor headroom check refuses a full run (REFUSED, nothing written), 1 when the
 * harness itself broke, else 0 (targets missed and a wide spread are reported, not failed).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AS_DEPLOYED, describeDeployment, QUIET } from './deployment.ts';
import { judgeHeadroom } from './headroom-check.ts';
import { pickLoadTool } from './load.ts';
import { writeBaselineFile } from './baseline-file.ts';
import { clearProfileDir, PROFILED_PROXIES, readBusiestProfile } from './profile-dir.ts';
import { PROFILE_FILE, writeProfileFile } from './profile-file.ts';
import { judgeRegression } from './regression-check.ts';
import { formatStageTimes, splitProfileByStage, type StageTime } from './profile-stages.ts';
import { formatSelfTimes, summarizeCpuProfile } from './profile-summary.ts';
import { defineRows, formatTextTable, HEADROOM_HEADERS, summarizeVerdicts, type ResultRow } from './report.ts';
import { PENDING_TARGETS, readCommit, writeResults } from './results-file.ts';
import { getRecordFile } from './record-file.ts';
import { HarnessError, runScenario } from './run-scenario.ts';
import { findMeasuredCpu, measureCostBreakdown, type CostBreakdown } from './cost-breakdown.ts';
import { formatCostBreakdown } from './cost-breakdown-table.ts';
import { chatThroughputScenario } from './scenarios/passthrough.ts';
import { DEFAULT_LENGTHENINGS, runUntilSteady } from './run-until-steady.ts';
import { HEADROOM_SCENARIOS, QUIET_SCENARIOS, SCENARIOS } from './scenarios/index.ts';
import type { Scenario } from './scenarios/types.ts';
import { setupBench } from './setup.ts';
import { checkSpread, hasBaseline, hasTarget } from './spread-check.ts';

/** What a `--baseline` run compares by default: the rows where the gateway's own cost shows. */
const BASELINE_SCENARIOS = ['chat-c1', 'chat-c64', 'stream-c64', 'stream-ttfb', 'translated-stream', 'slow-streams', 'startup-rss'];

function readOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      load: { type: 'string' },
      profile: { type: 'string' },
      'quiet-rows': { type: 'boolean', default: false },
      'skip-headroom': { type: 'boolean', default: false },
      baseline: { type: 'string' },
      lengthen: { type: 'string' },
    },
  });
  if (values['skip-headroom'] && !values.only) throw new Error('--skip-headroom goes with --only (a run that writes RESULTS.md always checks the vendor headroom)');
  const quick = values.quick!;
  const only = values.only?.split(',').map((s) => s.trim());
  const known = [...SCENARIOS, ...QUIET_SCENARIOS];
  const unknown = only?.filter((id) => !known.some((s) => s.id === id)) ?? [];
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${known.map((s) => s.id).join(', ')}`);
  return {
    quick,
    only,
    quietRows: values['quiet-rows']!,
    skipHeadroom: values['skip-headroom']!,
    rounds: Number(values.rounds ?? (quick ? 1 : 5)),
    roundS: Number(values.duration ?? (quick ? 1 : 10)),
    warmupS: Number(values.warmup ?? (quick ? 1 : 3)),
    lengthenings: Number(values.lengthen ?? (quick ? 0 : DEFAULT_LENGTHENINGS)),
    loadTool: pickLoadTool(values.load),
    profileDir: values.profile,
    baseline: values.baseline,
  };
}

/** The scenarios of a run, in order: the quiet rows (when asked) right after the streaming passthrough. */
function listScenarios(only: string[] | undefined, quietRows: boolean, baseline?: string): Scenario[] {
  const all = SCENARIOS.flatMap((s) => (s.id === 'stream-c64' ? [s, ...QUIET_SCENARIOS] : [s]));
  if (only) return all.filter((s) => only.includes(s.id));
  if (baseline) return SCENARIOS.filter((s) => BASELINE_SCENARIOS.includes(s.id));
  return quietRows ? all : SCENARIOS;
}

/** Prints each proxy's top self time and its split by request stage, and writes bench/PROFILE.md (which names its scenarios). */
async function printProfiles(dir: string, scenarios: Scenario[]): Promise<void> {
  const splits: Record<string, StageTime[]> = {};
  for (const name of PROFILED_PROXIES) {
    const busiest = await readBusiestProfile(join(dir, name));
    if (!busiest) continue;
    const top = formatSelfTimes(summarizeCpuProfile(busiest.profile, 30));
    splits[name] = splitProfileByStage(busiest.profile);
    console.log(`\nTop self time, ${name}: ${busiest.busyMs.toFixed(0)} ms busy (${busiest.file}):\n${top}`);
    console.log(`\nBy stage, ${name}:\n${formatStageTimes(splits[name])}`);
  }
  if (splits.gateway) {
    await writeProfileFile(PROFILE_FILE, { date: new Date(), commit: readCommit(), scenarios: scenarios.map((s) => s.title), loadAverage: loadavg()[0] }, splits);
    console.log(`\nwrote ${PROFILE_FILE}`);
  }
}

async function runBench(argv: string[]): Promise<number> {
  const options = readOptions(argv);
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  const scenarios = listScenarios(options.only, options.quietRows, options.baseline);
  if (options.profileDir) await clearProfileDir(options.profileDir);
  const log = (line: string) => console.error(line);
  log(
    `bench: ${options.quick ? 'quick' : 'full'} mode, load from ${options.loadTool}, ${options.rounds} round(s) of ${options.roundS} s, ` +
      `warm-up rounds of ${options.warmupS} s until settled, load average ${loadAtStart.toFixed(2)}`,
  );
  const { ctx, close } = await setupBench(options);
  if (!ctx.cpu.proxy) log('bench: processes are not pinned (no taskset, or no CPU 1)');
  const rows: ResultRow[] = [];
  let breakdown: CostBreakdown | undefined;
  const labels = { large: ctx.largeCount.toLocaleString('en-US'), streams: options.quick ? '200' : '1,000' };
  const headroomRows: ResultRow[] = [];
  let headroom: ReturnType<typeof judgeHeadroom> = { refused: false, lines: ['vendor headroom not checked (--skip-headroom): the ratios below are unverified.'] };
  try {
    if (options.baseline) headroom.lines = ['vendor headroom not checked: a --baseline run compares the gateway with itself at another commit.'];
    else if (!options.skipHeadroom) {
      for (const scenario of HEADROOM_SCENARIOS) {
        log(`${scenario.title}`);
        headroomRows.push(...defineRows(await runScenario(ctx, scenario, log), labels));
      }
      headroom = judgeHeadroom(headroomRows);
      console.log(`\n${formatTextTable(headroomRows, HEADROOM_HEADERS)}`);
    }
    console.log(`${headroom.lines.join('\n')}\n`);
    if (headroom.refused && !options.quick) return 2;
    if (headroom.refused) console.log('quick mode is a smoke test, not a measurement: it goes on, where a full run stops here.\n');
    const isJudged = options.baseline ? hasBaseline : hasTarget;
    for (const scenario of scenarios) {
      log(`${scenario.title}`);
      const steady = await runUntilSteady(ctx, scenario, { lengthenings: options.lengthenings, labels, isJudged, log });
      rows.push(...steady.rows);
      if (steady.note) ctx.notes.push(steady.note);
    }
    if (!options.quick && !options.baseline && scenarios.includes(chatThroughputScenario)) {
      log('Cost by request stage: a profiled round of a fresh floor and gateway (for RESULTS.md)');
      breakdown = await measureCostBreakdown(ctx, chatThroughputScenario, findMeasuredCpu(rows, chatThroughputScenario));
    }
    // Against a baseline the targets (ratios to the floor) do not apply: only the before/after verdict does.
    if (options.baseline) for (const row of rows) row.verdict = undefined;
  } finally {
    await close();
  }
  const minutes = (Date.now() - started) / 60_000;
  const { passed, total } = summarizeVerdicts(rows);
  // A --baseline run clears the targets' verdicts: the rows it judges are those compared with the baseline.
  const spread = checkSpread(rows, options.rounds, options.baseline ? hasBaseline : hasTarget);
  const deployments = scenarios.some((s) => QUIET_SCENARIOS.includes(s)) ? [AS_DEPLOYED, QUIET] : [AS_DEPLOYED];
  console.log(`\n${formatTextTable(rows)}\n`);
  if (!options.baseline) console.log(
    `${passed} of ${total} targets pass (reference: the floor proxy; translated stream: the floor's passthrough stream; ` +
      'model-count rows: the gateway on 10 models; "—": none).',
  );
  console.log(`gateway rows: ${AS_DEPLOYED.label} as deployed: ${describeDeployment(AS_DEPLOYED)}.`);
  if (deployments.includes(QUIET)) console.log(`quiet rows: ${describeDeployment(QUIET)}.`);
  for (const line of [...headroom.lines, ...spread.lines]) console.log(line);
  for (const note of ctx.notes) console.log(`note: ${note}`);
  if (breakdown) console.log(`\n${formatCostBreakdown(breakdown).join('\n')}`);
  if (!options.only) for (const pending of PENDING_TARGETS) console.log(`not measured yet: ${pending}`);
  if (options.profileDir) await printProfiles(options.profileDir, scenarios);
  const record = getRecordFile(options);
  if (options.baseline) {
    const verdict = judgeRegression(rows);
    console.log(`\nBefore (${ctx.floor.label}) and after (this checkout, ${readCommit()}), both as deployed:\n${verdict.lines.join('\n')}`);
    if (record) {
      await writeBaselineFile(record, { date: new Date(started), commit: readCommit(), reference: ctx.floor.label, rounds: options.rounds, roundS: options.roundS, loadAverage: [loadAtStart, loadavg()[0]] }, formatTextTable(rows), verdict.lines);
      console.log(`wrote ${record}`);
    }
  } else if (record) {
    const run = {
      ...options,
      date: new Date(started),
      commit: readCommit(),
      pinned: ctx.cpu.proxy !== undefined,
      loadAverage: [loadAtStart, loadavg()[0]] as [number, number],
      minutes,
      deployments,
      headroom: { rows: headroomRows, lines: headroom.lines },
      spread: spread.lines,
      breakdown,
    };
    await writeResults(record, rows, run, ctx.notes);
    console.log(`wrote ${record}`);
  }
  console.log(`bench took ${minutes.toFixed(1)} min`);
  return 0;
}

runBench(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof HarnessError ? `bench: harness failure: ${error.message}` : `bench: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
