import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A `gateway start` process serving on 127.0.0.1. */
export interface CliGateway {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Vendor key variables cleared for the child, so that only the ones a test sets count. */
const VENDOR_KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'DASHSCOPE_API_KEY', 'JINA_API_KEY'];

/**
 * Starts `gateway start --config <file>` in a real Node process (tsx, as `npm start` does) on an
 * ephemeral port of 127.0.0.1, with `env` added to the environment, and waits for its "listening on" line.
 */
export async function startCliGateway(configFile: string, env: Record<string, string>, args: string[] = []): Promise<CliGateway> {
  const cleared = Object.fromEntries(VENDOR_KEYS.map((name) => [name, '']));
  const child = spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'src/cli.ts', 'start', '--config', configFile, '--host', '127.0.0.1', '--port', '0', ...args],
    { env: { ...process.env, ...cleared, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
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
