import { createError, defineEventHandler, getRouterParam, setResponseHeaders, type EventHandler } from 'h3';
import type { ServerSettings } from '../config/types.ts';
import type { ImageStore } from './store.ts';
import { getImageStore } from './store-registry.ts';

/** The path re-hosted images are served under; `{id}` is the store's id. */
export const STORED_IMAGE_PATH = '/files/images/';

/**
 * An h3 handler for `GET /files/images/:id` serving the images of `getStore()` with their media type;
 * 404 for unknown or expired ids. The URLs are unguessable, so no client key is asked for.
 */
export function createStoredImageHandler(getStore: () => ImageStore | undefined): EventHandler {
  return defineEventHandler(async (event) => {
    const id = getRouterParam(event, 'id', { decode: true }) ?? '';
    const image = await getStore()?.get(id);
    if (!image) throw createError({ statusCode: 404, statusMessage: 'Not Found', message: 'This image is unknown or has expired.' });
    setResponseHeaders(event, {
      'content-type': image.contentType,
      'content-length': image.bytes.length,
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
    return image.bytes;
  });
}

/**
 * `GET /files/images/:id` for the image store of the current server settings (`getSettings` is read per
 * request, so a reload that moves `image_dir` is followed).
 */
export function serveStoredImage(getSettings: () => Pick<ServerSettings, 'imageDir'>): EventHandler {
  return createStoredImageHandler(() => getImageStore(getSettings()));
}
