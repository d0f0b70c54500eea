import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

/** A `gateway start` process serving on 127.0.0.1. */
export interface CliGateway {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** package.json's `start` script without its shell `exec`, with this Node: what `npm start` runs. */
function readStartScript(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'));
  const [command, ...args] = scripts.start.replace(/^exec /, '').split(' ');
  return [command === 'node' ? process.execPath : command, ...args];
}

/** How a test starts the gateway: the command and its arguments up to and including `start`. */
export const LAUNCHERS = {
  /** What `npm start` runs, read from package.json (one process). */
  node: readStartScript(),
  /** `npm start` itself (the signal goes to npm, which passes it on). */
  npm: ['npm', 'start', '--'],
  /** The `gateway` command (bin/gateway.mjs). */
  bin: [process.execPath, 'bin/gateway.mjs', 'start'],
};

/** Vendor key variables cleared for the child, so that only the ones a test sets count. */
const VENDOR_KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'DASHSCOPE_API_KEY', 'JINA_API_KEY'];

/**
 * Starts `gateway start --config <file>` in a real Node process (as `npm start` does, or as `launcher`
 * says) on an ephemeral port of 127.0.0.1, with `env` added to the environment, and waits (up to
 * `startTimeoutMs`, then stops it) for its "listening on" line. Without a config file the generated tables are served.
 */
export async function startCliGateway(
  configFile: string | undefined,
  env: Record<string, string>,
  args: string[] = [],
  launcher: string[] = LAUNCHERS.node,
  startTimeoutMs = 20_000,
): Promise<CliGateway> {
  const cleared = Object.fromEntries(VENDOR_KEYS.map((name) => [name, '']));
  const config = configFile === undefined ? [] : ['--config', configFile];
  const child = spawn(launcher[0], [...launcher.slice(1), ...config, '--host', '127.0.0.1', '--port', '0', ...args], {
    env: { ...process.env, ...cleared, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // A process that does not start in time is stopped, not left running after the test.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`no start within ${startTimeoutMs / 1000} s:\n${output}`));
    }, startTimeoutMs);
    const onExit = () => {
      clearTimeout(timer);
      reject(new Error(`exited early:\n${output}`));
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(match[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', onExit);
  });
  return {
    child,
    url,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}
