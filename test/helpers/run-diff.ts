import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** What a `gateway diff` process printed and its exit code. */
export interface DiffRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `gateway diff ARGS` from the sources (tsx), with `env` added to this process's environment. */
export async function runDiff(args: string[], env: Record<string, string> = {}): Promise<DiffRun> {
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli.ts', 'diff', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  return { code, stdout, stderr };
}
