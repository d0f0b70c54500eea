import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRestartPolicy } from '../../src/cli/define-restart-policy.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

runAlone();

/** A config every worker fails to start with: `server.store` names a variable that is not set. */
let written: WrittenConfig;
beforeAll(async () => {
  written = await writeGatewayConfig((raw) => {
    raw.server.store = 'env:CRASH_LOOP_REDIS_URL_UNSET';
  });
});
afterAll(() => written.remove());

describe('gateway start --workers with workers that fail at start', () => {
  it('restarts them with growing delays, then gives up: every worker stopped, a fatal line, exit code 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', '--config', written.file, '--host', '127.0.0.1', '--port', '0', '--workers', '2'], {
      env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '', DASHSCOPE_API_KEY: '', JINA_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    const [code] = await once(child, 'exit');
    clearTimeout(timer);
    expect(code, output).toBe(1);
    const lines = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    const restarts = lines.filter((line) => /restarting it in \d+ ms/.test(line.msg)).map((line) => Number(/in (\d+) ms/.exec(line.msg)![1]));
    const { maxFailures } = defineRestartPolicy(2);
    expect(restarts).toEqual([250, 500, 1000, 2000, 4000].slice(0, maxFailures - 1));
    const fatal = lines.filter((line) => line.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0].msg).toMatch(/workers are failing in a loop \(6 failures within 60 s, the last: code 1\): giving up; the primary exits with code 1/);
    expect(output).toContain('CRASH_LOOP_REDIS_URL_UNSET');
  }, 120_000);
});
