import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** A process that logs `count` lines through the gateway's default (asynchronous) destination, then exits at once. */
const SCRIPT = `
import { createLogger, getLineWriter } from './src/logger.ts';
const logFields = (logger, fields, msg) => getLineWriter(logger)(JSON.stringify({ level: 30, time: Date.now(), ...fields, msg }) + String.fromCharCode(10));
const logger = createLogger('info');
for (let i = 0; i < 20000; i++) logFields(logger, { n: i, pad: 'x'.repeat(100) }, 'request');
process.exit(0);
`;

function runScript(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', () => resolve(output));
  });
}

describe('the default log destination', () => {
  it('writes every queued line when the process exits right after logging them (process.exit flushes the queue)', async () => {
    const lines = (await runScript()).split('\n').filter(Boolean);
    expect(lines).toHaveLength(20000);
    expect(JSON.parse(lines[19999])).toMatchObject({ level: 30, n: 19999, msg: 'request' });
  });
});
