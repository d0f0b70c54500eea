/**
 * Runs a short-lived measuring child (load generator, client script) to completion, pinned when asked,
 * and returns its stdout; a non-zero exit is an error carrying stderr.
 */
import { spawn } from 'node:child_process';
import { definePinnedCommand } from './processes.ts';

/** Runs `command args` (on `cpu` when taskset exists) and resolves with its whole stdout. */
export function runChild(command: string, args: string[], cpu?: number, env?: NodeJS.ProcessEnv): Promise<string> {
  const [cmd, argv] = definePinnedCommand(command, args, cpu);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} exited with ${code}: ${stderr.slice(0, 2000) || stdout.slice(0, 2000)}`));
    });
  });
}

/** The last stdout line that is a JSON object, parsed. */
export function readLastJsonLine<T>(stdout: string): T {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (!line) throw new Error(`no JSON line in output: ${stdout.slice(0, 500)}`);
  return JSON.parse(line) as T;
}
