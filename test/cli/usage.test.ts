import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Runs the `gateway` command (bin/gateway.mjs) and resolves with its exit code and output. */
async function runGateway(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/gateway.mjs', ...args]);
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

describe('gateway usage and option errors', () => {
  it.each([[['--help']], [['-h']], [['start', '--help']], [['start', '-h']], [['check', '--help']]])('%j prints the usage on stdout and exits 0', async (args) => {
    const { code, stdout, stderr } = await runGateway(args);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: gateway <command>/);
    expect(stdout).toContain('--drain-timeout S');
    expect(stderr).toBe('');
  });

  it.each([
    [['start', '--drain-timeout', 'abc'], '--drain-timeout must be a number of seconds (0 or more), not "abc"'],
    [['start', '--drain-timeout=-1'], '--drain-timeout must be a number of seconds (0 or more), not "-1"'],
    [['start', '--drain-timeout', '-1'], "Option '--drain-timeout' argument is ambiguous"],
    [['start', '--no-such-option'], "Unknown option '--no-such-option'"],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('%j exits 2 with the problem and the usage on stderr, serving nothing', async (args, message) => {
    const { code, stdout, stderr } = await runGateway(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('usage: gateway <command>');
    expect(stdout).not.toContain('listening on');
  });
});
