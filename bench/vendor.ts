/**
 * The benchmark's vendor: the built-in OpenAI simulator in its own process, recording nothing.
 * Usage: `node --import tsx bench/vendor.ts --key K [--stream-events N] [--stream-interval-ms MS]`.
 * Prints one JSON line `{"url":"http://127.0.0.1:P/v1"}` once listening; stops on SIGTERM or SIGINT.
 */
import { parseArgs } from 'node:util';
import { startOpenAISimulator } from '../src/simulators/index.ts';

/** Starts the simulated vendor named by the command-line options and prints its URL. */
async function startBenchVendor(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      key: { type: 'string' },
      'stream-events': { type: 'string' },
      'stream-interval-ms': { type: 'string' },
    },
  });
  const events = values['stream-events'];
  const sim = await startOpenAISimulator({
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
