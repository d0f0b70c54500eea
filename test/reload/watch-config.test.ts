import { mkdir, mkdtemp, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchConfigFile, type ConfigWatch } from '../../src/reload/watch-config.ts';
import { waitFor } from '../helpers/wait-for.ts';

const DEBOUNCE_MS = 100;

/** Waits well past the debounce, so that a call that was going to come has come. */
const settle = () => new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS * 6));

describe('the watch of a config file', () => {
  let dir: string;
  let watch: ConfigWatch | undefined;
  let calls: number;
  const onChange = () => void calls++;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watch-config-'));
    calls = 0;
  });
  afterEach(async () => {
    watch?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('calls once for a file written in place, and not for a touch that changes nothing', async () => {
    const file = join(dir, 'gateway.yaml');
    await writeFile(file, 'a: 1\n');
    watch = await watchConfigFile(file, onChange, DEBOUNCE_MS);
    await writeFile(file, 'a: 2\n');
    await waitFor(() => calls === 1);
    await utimes(file, new Date(), new Date());
    await writeFile(file, 'a: 2\n');
    await settle();
    expect(calls).toBe(1);
  });

  it('debounces a burst of writes into one call', async () => {
    const file = join(dir, 'gateway.yaml');
    await writeFile(file, 'a: 0\n');
    // A longer quiet time than the other cases: five writes in a row must fall in one burst on a busy machine.
    watch = await watchConfigFile(file, onChange, DEBOUNCE_MS * 5);
    for (let i = 1; i <= 5; i++) await writeFile(file, `a: ${i}\n`);
    await waitFor(() => calls === 1);
    await settle();
    await settle();
    expect(calls).toBe(1);
  });

  it('catches a file replaced by a rename (an editor or a deploy writing a temporary file first)', async () => {
    const file = join(dir, 'gateway.yaml');
    await writeFile(file, 'a: 1\n');
    watch = await watchConfigFile(file, onChange, DEBOUNCE_MS);
    await writeFile(join(dir, '.gateway.yaml.tmp'), 'a: 2\n');
    await rename(join(dir, '.gateway.yaml.tmp'), file);
    await waitFor(() => calls === 1);
  });

  it('catches a Kubernetes ConfigMap update: the ..data symlink swapped to a new folder', async () => {
    // The layout kubelet makes: gateway.yaml -> ..data/gateway.yaml, ..data -> ..2026_01 (a timestamped folder).
    await mkdir(join(dir, '..2026_01'));
    await writeFile(join(dir, '..2026_01', 'gateway.yaml'), 'a: 1\n');
    await symlink('..2026_01', join(dir, '..data'));
    await symlink(join('..data', 'gateway.yaml'), join(dir, 'gateway.yaml'));
    watch = await watchConfigFile(join(dir, 'gateway.yaml'), onChange, DEBOUNCE_MS);
    await mkdir(join(dir, '..2026_02'));
    await writeFile(join(dir, '..2026_02', 'gateway.yaml'), 'a: 2\n');
    await symlink('..2026_02', join(dir, '..data_tmp'));
    await rename(join(dir, '..data_tmp'), join(dir, '..data'));
    await rm(join(dir, '..2026_01'), { recursive: true });
    await waitFor(() => calls === 1);
    await settle();
    expect(calls).toBe(1);
  });

  it('catches a symlink pointed at another file, and a missing file only once it is back with new content', async () => {
    await writeFile(join(dir, 'one.yaml'), 'a: 1\n');
    await writeFile(join(dir, 'two.yaml'), 'a: 2\n');
    const file = join(dir, 'gateway.yaml');
    await symlink('one.yaml', file);
    watch = await watchConfigFile(file, onChange, DEBOUNCE_MS);
    await symlink('two.yaml', join(dir, 'link.tmp'));
    await rename(join(dir, 'link.tmp'), file);
    await waitFor(() => calls === 1);
    await rm(file);
    await settle();
    expect(calls).toBe(1);
    await writeFile(file, 'a: 3\n');
    await waitFor(() => calls === 2);
  });
});
