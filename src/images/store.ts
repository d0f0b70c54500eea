import type { ServerSettings } from '../config/types.ts';
import { createLocalImageStore } from './local-store.ts';

/** How long re-hosted images are served: the spec's promise for image URLs. */
export const IMAGE_TTL_MS = 24 * 60 * 60 * 1000;

/** A stored image as it is served. */
export interface StoredImage {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where re-hosted images live. One small interface so a shared object store can serve several
 * gateways; the default keeps files in a local directory (`server.image_dir`).
 */
export interface ImageStore {
  /** Stores an image for {@link IMAGE_TTL_MS} and answers its unguessable id (safe in a URL path). */
  put(bytes: Buffer): Promise<string>;
  /** The image of `id`, or undefined when it is unknown or expired. */
  get(id: string): Promise<StoredImage | undefined>;
}

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
