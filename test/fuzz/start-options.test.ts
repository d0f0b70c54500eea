import fc from 'fast-check';
import { describe, it } from 'vitest';
import { readStartOptions } from '../../src/cli/read-start-options.ts';
import { runFuzz } from './fuzz-run.ts';

const RUNS = 300;

/** Arguments of `gateway start` as a person or a script may write them: known options, values and junk. */
const arbitraryArgs = fc.array(
  fc.oneof(
    fc.constantFrom('--watch', '--config', 'gateway.yaml', '--workers', '2', '--port', '0', '--simulate', '--drain-timeout', '-h', '--watch=1', '--no-watch', '--'),
    fc.string({ maxLength: 12 }),
  ),
  { maxLength: 8 },
);

describe('fuzz: the options of gateway start', () => {
  it('never throws; --watch is accepted only with --config, and every refusal says what is wrong', async () => {
    await runFuzz(
      'start-options',
      arbitraryArgs,
      async (args) => {
        const broken: string[] = [];
        let parsed: ReturnType<typeof readStartOptions>;
        try {
          parsed = readStartOptions(args);
        } catch (error) {
          return [`threw ${(error as Error).message}`];
        }
        if ('error' in parsed) {
          if (!parsed.error) broken.push('an empty error');
        } else if (parsed.options.watch && parsed.options.config === undefined) broken.push('--watch accepted without --config');
        return broken;
      },
      RUNS,
    );
  });
});
