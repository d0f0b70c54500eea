import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Logs 20,000 lines (multi-byte text in every third) through the gateway's default destination, then exits at
 * once. With SHORT set, every write of standard output writes only part of what it is given (as a full disk
 * or a file size limit would), so the destination has to write the rest itself.
 */
const SCRIPT = `
import fs from 'node:fs';
if (process.env.SHORT) {
  const writeSync = fs.writeSync;
  fs.writeSync = (fd, data, ...rest) => {
    if (fd !== 1) return writeSync(fd, data, ...rest);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data.subarray(rest[0] ?? 0, (rest[0] ?? 0) + (rest[1] ?? data.length));
    return writeSync(fd, bytes.subarray(0, Math.max(1, bytes.length >> 1)));
  };
}
const { createLogger, getLineWriter } = await import('./src/logger.ts');
const logFields = (logger, fields, msg) => getLineWriter(logger)(JSON.stringify({ level: 30, time: Date.now(), ...fields, msg }) + String.fromCharCode(10));
const logger = createLogger('info');
for (let i = 0; i < 20000; i++) logFields(logger, { n: i, pad: (i % 3 === 0 ? 'é€' : 'x').repeat(i % 50) }, 'request');
process.exit(0);
`;

function runScript(file: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const fd = openSync(file, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { stdio: ['ignore', fd, 'inherit'], env: { ...process.env, ...env } });
    closeSync(fd);
    child.once('error', reject);
    child.once('close', () => resolve(readFileSync(file, 'utf8')));
  });
}

function expectEveryLine(output: string): void {
  const lines = output.split('\n');
  expect(lines.pop()).toBe('');
  expect(lines).toHaveLength(20000);
  lines.forEach((line, i) => expect(JSON.parse(line)).toEqual({ level: 30, time: expect.any(Number), n: i, pad: (i % 3 === 0 ? 'é€' : 'x').repeat(i % 50), msg: 'request' }));
}

describe('the default log destination on a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'logger-file-writes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every queued line, whole and in order, when the process exits right after logging them', async () => {
    expectEveryLine(await runScript(join(dir, 'exit.log')));
  });

  it('writes the rest of a batch the file took only part of, so no line is cut or lost', async () => {
    expectEveryLine(await runScript(join(dir, 'short.log'), { SHORT: '1' }));
  });
});
