/**
 * A benchmark vendor: one built-in simulator in its own process, recording nothing (the slow OpenAI
 * vendor of the slow-stream scenario and the DashScope one of images; the fast routes use the static
 * vendor, bench/static-vendor.ts).
 * Usage: `node --import tsx bench/vendor.ts --key K [--protocol openai|dashscope]
 *        [--stream-events N] [--stream-interval-ms MS]` (default protocol: openai).
 * Prints one JSON line `{"url":"<the simulator's base URL>"}` once listening; stops on SIGTERM or SIGINT.
 */
import { parseArgs } from 'node:util';
import { type Simulator, type SimulatorOptions } from '../src/protocols/simulators.ts';
import { startDashScopeSimulator } from '../src/protocols/dashscope/simulator/index.ts';
import { startOpenAISimulator } from '../src/protocols/openai/simulator/index.ts';

/** The simulator started for each `--protocol`. */
const SIMULATORS: Record<string, (options: SimulatorOptions) => Promise<Simulator>> = {
  openai: startOpenAISimulator,
  dashscope: startDashScopeSimulator,
};

/** Starts the simulated vendor named by the command-line options and prints its URL. */
async function startBenchVendor(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      key: { type: 'string' },
      protocol: { type: 'string', default: 'openai' },
      'stream-events': { type: 'string' },
      'stream-interval-ms': { type: 'string' },
    },
  });
  const start = SIMULATORS[values.protocol!];
  if (!start) throw new Error(`unknown --protocol "${values.protocol}" (${Object.keys(SIMULATORS).join(', ')})`);
  const events = values['stream-events'];
  const sim = await start({
    key: values.key,
    record: false,
    streamEvents: events === undefined ? undefined : Number(events),
    streamIntervalMs: Number(values['stream-interval-ms'] ?? 0),
  });
  const stop = (): void => void sim.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
}

startBenchVendor(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
