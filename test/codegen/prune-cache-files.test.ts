import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneCacheFiles } from '../../src/codegen/prune-cache-files.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prune-cache-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hash = (i: number) => i.toString(16).padStart(32, '0');

/** Writes `name-HASH.ext` files used `i` minutes ago for each i of `ages`. */
async function writeFiles(name: string, ext: string, ages: number[]): Promise<string[]> {
  const files: string[] = [];
  for (const [i, age] of ages.entries()) {
    const file = `${name}-${hash(i)}${ext}`;
    await writeFile(join(dir, file), 'x');
    const at = new Date(Date.now() - age * 60_000);
    await utimes(join(dir, file), at, at);
    files.push(file);
  }
  return files;
}

describe('pruneCacheFiles', () => {
  it('keeps the most recently used files of the generator and removes the rest', async () => {
    const files = await writeFiles('openapi', '.d.ts', [5, 1, 9, 3, 7]);
    await pruneCacheFiles(dir, 'openapi', '.d.ts', 3);
    expect((await readdir(dir)).sort()).toEqual([files[1], files[3], files[0]].sort());
  });

  it("leaves other generators' files, a partial write in progress and unrelated files alone", async () => {
    await writeFiles('shape-validator', '.cjs', [1, 2, 3]);
    const others = ['openapi-1234.d.ts', `shape-validator-${hash(9)}.cjs.42.${Date.now()}.tmp`, 'notes.txt', `shape-validatorx-${hash(1)}.cjs`];
    for (const file of others) await writeFile(join(dir, file), 'x');
    await pruneCacheFiles(dir, 'shape-validator', '.cjs', 1);
    expect((await readdir(dir)).sort()).toEqual([...others, `shape-validator-${hash(0)}.cjs`].sort());
  });

  it('changes nothing while the generator has no more files than it keeps', async () => {
    const files = await writeFiles('validators', '.mjs', [1, 2]);
    await pruneCacheFiles(dir, 'validators', '.mjs', 2);
    expect((await readdir(dir)).sort()).toEqual(files.sort());
  });

  it('removes partial writes of the generator started over an hour ago, and keeps younger ones', async () => {
    const now = Date.now();
    const old = `validators-${hash(1)}.mjs.41.${now - 61 * 60_000}.tmp`;
    const young = `validators-${hash(2)}.mjs.42.${now - 59 * 60_000}.tmp`;
    const otherGenerator = `openapi-${hash(3)}.d.ts.43.${now - 120 * 60_000}.tmp`;
    for (const file of [old, young, otherGenerator]) await writeFile(join(dir, file), 'x');
    await pruneCacheFiles(dir, 'validators', '.mjs', 8, now);
    expect((await readdir(dir)).sort()).toEqual([otherGenerator, young].sort());
  });
});
