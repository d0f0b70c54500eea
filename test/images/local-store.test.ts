import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalImageStore } from '../../src/images/local-store.ts';
import { TINY_PNG } from '../../src/simulators/media.ts';

const DAY = 24 * 60 * 60 * 1000;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-images-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('local image store', () => {
  it('stores an image under an unguessable id and gives the same bytes back', async () => {
    const store = createLocalImageStore(join(dir, 'created-on-first-put'));
    const id = await store.put(TINY_PNG);
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}\.png$/);
    expect(await store.get(id)).toEqual({ bytes: TINY_PNG, contentType: 'image/png' });
    expect(await store.put(TINY_PNG)).not.toBe(id);
  });

  it('forgets an image 24 hours after storing it and deletes the file', async () => {
    let clock = Date.now();
    const store = createLocalImageStore(dir, { now: () => clock });
    const id = await store.put(TINY_PNG);
    clock += DAY - 60_000;
    expect(await store.get(id)).toBeDefined();
    clock += 120_000;
    expect(await store.get(id)).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  it('answers undefined for unknown ids and ids that try to leave the directory', async () => {
    const store = createLocalImageStore(dir);
    await store.put(TINY_PNG);
    for (const id of ['nope.png', '../etc/passwd', `${'a'.repeat(32)}.png`, `${'a'.repeat(32)}.constructor`, '']) {
      expect(await store.get(id)).toBeUndefined();
    }
  });

  it('refuses bytes that are not an image', async () => {
    const store = createLocalImageStore(dir);
    await expect(store.put(Buffer.from('<html><script>alert(1)</script></html>'))).rejects.toMatchObject({ status: 502 });
    expect(await readdir(dir).catch(() => [])).toEqual([]);
  });
});
