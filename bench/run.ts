/**
 * `npm run bench`: the gateway against the bare floor proxy, scenario by scenario, in interleaved rounds;
 * prints medians, ratios and the targets, and rewrites bench/RESULTS.md after a full run.
 *
 *   npm run bench                       full run (3 s warm-up, 5 rounds of 10 s), writes bench/RESULTS.md
 *   npm run bench -- --quick            smoke test: 1 round of ~1 s, small counts, writes nothing
 *   npm run bench -- --only chat-c64,stream-ttfb   some scenarios only (writes nothing)
 *   npm run bench -- --profile DIR      also `--cpu-prof` the shared floor and gateway into DIR and print
 *                                       their top self-time functions
 *   --rounds N, --duration S, --warmup S, --load wrk|autocannon
 *
 * Exit code 0 unless the harness itself broke (targets missed are reported, not failed).
 */
import { readdir, mkdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pickLoadTool } from './load.ts';
import { formatSelfTimes, getBusyMs, summarizeCpuProfile, type CpuProfile } from './profile-summary.ts';
import { defineRows, formatTextTable, summarizeVerdicts, type ResultRow } from './report.ts';
import { PENDING_TARGETS, writeResults } from './results-file.ts';
import { HarnessError, runScenario } from './run-scenario.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { setupBench } from './setup.ts';

const RESULTS_FILE = 'bench/RESULTS.md';

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
    },
  });
  const quick = values.quick!;
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((id) => !SCENARIOS.some((s) => s.id === id)) ?? [];
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  return {
    quick,
    only,
    rounds: Number(values.rounds ?? (quick ? 1 : 5)),
    roundS: Number(values.duration ?? (quick ? 1 : 10)),
    warmupS: Number(values.warmup ?? (quick ? 1 : 3)),
    loadTool: pickLoadTool(values.load),
    profileDir: values.profile,
  };
}

/** Prints the busiest profile of each proxy (the tsx loader's worker thread writes an idle one beside it). */
async function printProfiles(dir: string): Promise<void> {
  for (const name of ['floor', 'gateway']) {
    const files = (await readdir(join(dir, name)).catch(() => [] as string[])).filter((f) => f.endsWith('.cpuprofile'));
    let busiest: { file: string; profile: CpuProfile; busyMs: number } | undefined;
    for (const f of files) {
      const profile = JSON.parse(await readFile(join(dir, name, f), 'utf8')) as CpuProfile;
      const busyMs = getBusyMs(profile);
      if (!busiest || busyMs > busiest.busyMs) busiest = { file: join(dir, name, f), profile, busyMs };
    }
    if (!busiest) continue;
    const top = formatSelfTimes(summarizeCpuProfile(busiest.profile, 30));
    console.log(`\nTop self time, ${name}: ${busiest.busyMs.toFixed(0)} ms busy (${busiest.file}):\n${top}`);
  }
}

async function runBench(argv: string[]): Promise<number> {
  const options = readOptions(argv);
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  const scenarios = options.only ? SCENARIOS.filter((s) => options.only!.includes(s.id)) : SCENARIOS;
  if (options.profileDir) await mkdir(options.profileDir, { recursive: true });
  const log = (line: string) => console.error(line);
  log(
    `bench: ${options.quick ? 'quick' : 'full'} mode, load from ${options.loadTool}, ${options.rounds} round(s) of ${options.roundS} s, ` +
      `warm-up ${options.warmupS} s, load average ${loadAtStart.toFixed(2)}`,
  );
  const { ctx, close } = await setupBench(options);
  if (!ctx.cpu.proxy) log('bench: processes are not pinned (no taskset, or no CPU 1)');
  const rows: ResultRow[] = [];
  const labels = { large: ctx.largeCount.toLocaleString('en-US'), streams: options.quick ? '200' : '1,000' };
  try {
    for (const scenario of scenarios) {
      log(`${scenario.title}`);
      rows.push(...defineRows(await runScenario(ctx, scenario, log), labels));
    }
  } finally {
    await close();
  }
  const minutes = (Date.now() - started) / 60_000;
  const { passed, total } = summarizeVerdicts(rows);
  console.log(`\n${formatTextTable(rows)}\n`);
  console.log(
    `${passed} of ${total} targets pass (reference: the floor proxy; translated stream: the floor's passthrough stream; ` +
      'model-count rows: the gateway on 10 models; "—": none).',
  );
  for (const note of ctx.notes) console.log(`note: ${note}`);
  if (!options.only) for (const pending of PENDING_TARGETS) console.log(`not measured yet: ${pending}`);
  if (options.profileDir) await printProfiles(options.profileDir);
  if (!options.quick && !options.only) {
    const run = { ...options, date: new Date(started), pinned: ctx.cpu.proxy !== undefined, loadAverage: [loadAtStart, loadavg()[0]] as [number, number], minutes };
    await writeResults(RESULTS_FILE, rows, run, ctx.notes);
    console.log(`wrote ${RESULTS_FILE}`);
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
