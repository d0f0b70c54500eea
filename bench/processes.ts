/**
 * The benchmark's processes: node scripts (run with the tsx loader in a single process, so the pid is
 * the one doing the work) pinned to a CPU with `taskset` when it exists, readiness by a JSON line or by
 * polling `/healthz`, and their CPU time and RSS read from /proc.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

/** A process the bench started. */
export interface BenchProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** Options of {@link startNodeProcess}. */
export interface NodeProcessOptions {
  name: string;
  /** Script and its arguments, relative to the repository root. */
  args: string[];
  /** Extra node flags (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** CPU to pin the process to (ignored without taskset). */
  cpu?: number;
  env?: NodeJS.ProcessEnv;
  /** File the process's stdout is appended to (instead of a pipe, which then yields no JSON line). */
  stdoutFile?: string;
}

let tasksetFound: boolean | undefined;

/** Whether processes can be pinned: `taskset` exists and CPU 1 (the proxies' CPU) is there to pin to. */
export function hasTaskset(): boolean {
  tasksetFound ??= spawnSync('taskset', ['-c', '1', 'true']).status === 0;
  return tasksetFound;
}

/** The command line of a process pinned to `cpu` when possible. */
export function definePinnedCommand(command: string, args: string[], cpu?: number): [string, string[]] {
  if (cpu === undefined || !hasTaskset()) return [command, args];
  return ['taskset', ['-c', String(cpu), command, ...args]];
}

/**
 * Starts `node --import tsx <args>` (plain `node` for a bundled `.mjs` script), pinned when asked;
 * stderr is kept for the error message; stdout is a pipe, or appended to `stdoutFile` (opened O_APPEND,
 * so the file may be truncated while the process writes).
 */
export function startNodeProcess(options: NodeProcessOptions): BenchProcess {
  const loader = options.args[0]?.endsWith('.mjs') ? [] : ['--import', 'tsx'];
  const nodeArgs = [...(options.nodeFlags ?? []), ...loader, ...options.args];
  const [command, args] = definePinnedCommand(process.execPath, nodeArgs, options.cpu);
  const stdout = options.stdoutFile === undefined ? 'pipe' : openSync(options.stdoutFile, 'a');
  const child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', stdout, 'pipe'] });
  if (typeof stdout === 'number') closeSync(stdout);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 8000) stderr += chunk.toString();
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && code !== null && !exiting.has(child)) {
      console.error(`[bench] ${options.name} exited with ${code ?? signal}\n${stderr}`);
    }
  });
  return {
    name: options.name,
    pid: child.pid!,
    child,
    stop: () => stopChild(child),
  };
}

const exiting = new Set<ChildProcess>();

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  exiting.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Resolves with the first stdout line of a process, parsed as JSON. */
export function readFirstJsonLine<T>(proc: BenchProcess, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.child.stdout! });
    const timer = setTimeout(() => reject(new Error(`${proc.name} printed nothing in ${timeoutMs} ms`)), timeoutMs);
    proc.child.once('exit', (code) => reject(new Error(`${proc.name} exited (${code}) before it was ready`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        reject(new Error(`${proc.name} printed a line that is not JSON: ${line}`));
      }
    });
  });
}

/** Polls `GET <origin>/healthz` until it answers 200 (or the process dies, or the time runs out). */
export async function waitForHealthy(proc: BenchProcess, origin: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited (${proc.child.exitCode}) before it was ready`);
    try {
      const response = await request(`${origin}/healthz`);
      await response.body.dump();
      if (response.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`${proc.name} was not healthy after ${timeoutMs} ms`);
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/** CPU seconds (user + system, all threads) a process has used, from /proc/<pid>/stat. */
export function readCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size of a process in bytes, from /proc/<pid>/status. */
export function readRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}
