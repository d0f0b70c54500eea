import type { ServerSettings } from '../config/types.ts';
import { createLocalImageStore } from './local-store.ts';
import type { ImageStore } from './store.ts';

let installed: ImageStore | undefined;
const localStores = new Map<string, ImageStore>();

/** Replaces the default local-directory store (e.g. with a shared object store) for every request. */
export function setImageStore(store: ImageStore | undefined): void {
  installed = store;
}

/**
 * The image store of a gateway: the installed one, or the local store of `settings.imageDir` (one per
 * directory, shared by image generation and the handler serving the images).
 */
export function getImageStore(settings: Pick<ServerSettings, 'imageDir'>): ImageStore {
  if (installed) return installed;
  let store = localStores.get(settings.imageDir);
  if (!store) {
    store = createLocalImageStore(settings.imageDir);
    localStores.set(settings.imageDir, store);
  }
  return store;
}
