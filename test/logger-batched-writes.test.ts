import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A process that logs lines of many sizes (multi-byte text included) through the gateway's default
 * destination, with `fs.writeSync` recording the size and ending of every write on stderr, then exits.
 */
const SCRIPT = `
import fs from 'node:fs';
const writeSync = fs.writeSync;
fs.writeSync = (fd, data, ...rest) => {
  if (fd === 1) {
    // A string, or a Buffer's bytes from an offset for a length (the file destination writes its buffer so).
    const text = typeof data === 'string' ? data : data.toString('utf8', rest[0] ?? 0, (rest[0] ?? 0) + (rest[1] ?? data.length));
    process.stderr.write(JSON.stringify([Buffer.byteLength(text), text.endsWith(String.fromCharCode(10))]) + String.fromCharCode(10));
  }
  return writeSync(fd, data, ...rest);
};
const { createLogger, getLineWriter } = await import('./src/logger.ts');
const logFields = (logger, fields, msg) => getLineWriter(logger)(JSON.stringify({ level: 30, time: Date.now(), ...fields, msg }) + String.fromCharCode(10));
const logger = createLogger('info');
for (let i = 0; i < 300; i++) logFields(logger, { n: i, pad: (i % 3 === 0 ? 'é' : 'x').repeat((i * 37) % 900) }, 'request');
logFields(logger, { n: 300, pad: 'y'.repeat(5000) }, 'request');
logFields(logger, { n: 301 }, 'request');
process.exit(0);
`;

/** Runs {@link SCRIPT} with its standard output on a pipe, or on the file `file` when given. */
function runScript(file?: string): Promise<{ stdout: string; writes: [number, boolean][] }> {
  return new Promise((resolve, reject) => {
    const fd = file === undefined ? 'pipe' : openSync(file, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { stdio: ['ignore', fd, 'pipe'] });
    if (typeof fd === 'number') closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', () => {
      if (file !== undefined) stdout = readFileSync(file, 'utf8');
      resolve({ stdout, writes: stderr.split('\n').filter((l) => l.startsWith('[')).map((l) => JSON.parse(l)) });
    });
  });
}

const readOrder = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { n: number }).n);

describe('the default log destination, batching lines', () => {
  it('writes whole lines together, at most 4096 bytes a write unless one line alone is longer, every line in order', async () => {
    const { stdout, writes } = await runScript();
    expect(readOrder(stdout)).toEqual(Array.from({ length: 302 }, (_, i) => i));
    expect(writes.every(([, whole]) => whole)).toBe(true);
    const long = writes.filter(([bytes]) => bytes > 4096);
    expect(long).toHaveLength(1);
    expect(long[0][0]).toBeGreaterThan(5000);
    // Batched: far fewer writes than lines, each but the last few holding at least 3 KB.
    expect(writes.length).toBeLessThan(120);
    expect(writes.filter(([bytes]) => bytes >= 3072).length).toBeGreaterThan(writes.length / 2);
  });
});

describe('the default log destination on a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'logger-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes whole lines in batches of up to 64 KB, far fewer writes than on a pipe, every line in order', async () => {
    const { stdout, writes } = await runScript(join(dir, 'gateway.log'));
    expect(readOrder(stdout)).toEqual(Array.from({ length: 302 }, (_, i) => i));
    expect(writes.every(([, whole]) => whole)).toBe(true);
    expect(writes.every(([bytes]) => bytes <= 64 * 1024 + 1024)).toBe(true);
    // About 150 KB of lines: a handful of writes where a pipe takes more than forty.
    expect(writes.length).toBeLessThan(10);
    expect(writes.some(([bytes]) => bytes > 30 * 1024)).toBe(true);
  });
});
