import { describe, expect, it } from 'vitest';
import { readStartOptions } from '../../src/cli/read-start-options.ts';

describe('readStartOptions', () => {
  it('reads every option, with a 30 s drain and one process by default', () => {
    expect(readStartOptions([])).toEqual({ options: { help: false, workers: 1, drainMs: 30_000, watch: false } });
    expect(readStartOptions(['--config', 'a.yaml', '--port', '0', '--host', '::1', '--simulate', '--log-level', 'warn', '--workers', '4', '--drain-timeout', '2.5', '--watch'])).toEqual({
      options: { help: false, config: 'a.yaml', port: 0, host: '::1', simulate: true, logLevel: 'warn', workers: 4, drainMs: 2500, watch: true },
    });
    expect(readStartOptions(['-h'])).toMatchObject({ options: { help: true } });
  });

  it.each([
    [['--drain-timeout', 'abc'], '--drain-timeout must be a number of seconds (0 or more), not "abc"'],
    [['--drain-timeout=-5'], '--drain-timeout must be a number of seconds (0 or more), not "-5"'],
    [['--drain-timeout', ''], '--drain-timeout must be a number of seconds (0 or more), not ""'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535, not "70000"'],
    [['--port', '80x'], '--port must be an integer from 0 to 65535, not "80x"'],
    [['--workers', '0'], '--workers must be an integer from 1 to 1024, not "0"'],
    [['--log-level', 'loud'], '--log-level must be one of fatal, error, warn, info, debug, trace, silent, not "loud"'],
    [['--watch'], '--watch needs --config FILE (the file to watch)'],
  ])('rejects %j naming the option and the value', (args, message) => {
    expect(readStartOptions(args)).toEqual({ error: message });
  });

  it('rejects an unknown option and a stray argument', () => {
    expect((readStartOptions(['--bogus']) as { error: string }).error).toContain("Unknown option '--bogus'");
    expect((readStartOptions(['extra']) as { error: string }).error).toContain("'extra'");
  });
});
