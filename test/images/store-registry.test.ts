import { afterEach, describe, expect, it } from 'vitest';
import type { ImageStore } from '../../src/images/store.ts';
import { getImageStore, setImageStore } from '../../src/images/store-registry.ts';

afterEach(() => setImageStore(undefined));

describe('image store registry', () => {
  it('gives one local store per directory, shared by every caller', () => {
    const a = getImageStore({ imageDir: '/tmp/gateway-registry-a' });
    expect(getImageStore({ imageDir: '/tmp/gateway-registry-a' })).toBe(a);
    expect(getImageStore({ imageDir: '/tmp/gateway-registry-b' })).not.toBe(a);
  });

  it('answers an installed store (e.g. a shared object store) whatever the directory', () => {
    const shared: ImageStore = { put: async () => 'id.png', get: async () => undefined };
    setImageStore(shared);
    expect(getImageStore({ imageDir: '/tmp/gateway-registry-a' })).toBe(shared);
  });
});
