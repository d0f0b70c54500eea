import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileLines } from '../src/log-file-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'log-file-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Writes `lines` through a file sink on a new file, flushing where `flushes` says, and returns the file's bytes. */
function writeThrough(lines: string[], flushes: boolean[] = []): Buffer {
  const file = join(dir, `out-${files++}.log`);
  const fd = openSync(file, 'a');
  try {
    const sink = openFileLines(fd);
    lines.forEach((line, i) => {
      sink.write(line);
      if (flushes[i]) sink.flushSync();
    });
    sink.flushSync();
  } finally {
    closeSync(fd);
  }
  return readFileSync(file);
}

describe('openFileLines', () => {
  it('writes the bytes a writeSync of the lines joined would write (any text, lone surrogates, lines past the buffer)', () => {
    const line = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 2000 }),
      fc.integer({ min: 10_000, max: 40_000 }).map((n) => 'é'.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(line.map((text) => `${text}\n`), { maxLength: 80 }), fc.array(fc.boolean()), (lines, flushes) => {
        expect(writeThrough(lines, flushes).equals(Buffer.from(lines.join('')))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('writes nothing until a batch is full or it is flushed, then every line in order', () => {
    const file = join(dir, 'batches.log');
    const fd = openSync(file, 'a');
    const sink = openFileLines(fd);
    sink.write('{"n":1}\n');
    expect(readFileSync(file, 'utf8')).toBe('');
    const filler = `{"pad":"${'x'.repeat(1000)}"}\n`;
    for (let i = 0; i < 40; i++) sink.write(filler);
    const written = readFileSync(file, 'utf8');
    expect(written.startsWith('{"n":1}\n')).toBe(true);
    expect(written.length).toBeGreaterThanOrEqual(32 * 1024);
    sink.flushSync();
    expect(readFileSync(file, 'utf8')).toBe(`{"n":1}\n${filler.repeat(40)}`);
    closeSync(fd);
  });
});
