import { defineEventHandler, setResponseHeaders, setResponseStatus, type EventHandler, type H3Event } from 'h3';
import type { ServerSettings } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { createRequestId } from '../runtime/request-id.ts';
import { renderError } from '../protocols/render-error.ts';
import { DEFAULT_STYLE } from '../protocols/styles.ts';
import { clipClientText } from '../lib/clip-text.ts';
import type { ImageStore } from './store.ts';
import { getImageStore } from './store-registry.ts';

/** The path re-hosted images are served under; `{id}` is the store's id. */
export const STORED_IMAGE_PATH = '/files/images/';

/**
 * An h3 handler for everything under `/files/`: `GET /files/images/{id}` serves the images of
 * `getStore()` with their media type. Anything else (an unknown or expired id, another path, another
 * method) is a 404 (a store failure a 500) in the gateway's own error shape (OpenAI style: the URLs come from the images API)
 * with an `x-request-id`. The URLs are unguessable, so no client key is asked for.
 */
export function createStoredImageHandler(getStore: () => ImageStore | undefined): EventHandler {
  return defineEventHandler(async (event) => {
    const path = event.path.split('?', 1)[0];
    const method = event.method;
    const id = path.startsWith(STORED_IMAGE_PATH) ? path.slice(STORED_IMAGE_PATH.length) : '';
    if ((method !== 'GET' && method !== 'HEAD') || id === '' || id.includes('/')) {
      return answerError(event, new GatewayError(404, 'route_not_found', `No route for ${method} ${clipClientText(path)}.`));
    }
    // Ids are random and URL-safe: the segment is used as it came (no percent-decoding that could throw).
    let image: Awaited<ReturnType<ImageStore['get']>>;
    try {
      image = await getStore()?.get(id);
    } catch (error) {
      return answerError(event, new GatewayError(500, 'internal_error', 'The gateway failed to read the stored image.', { cause: error }));
    }
    if (!image) return answerError(event, new GatewayError(404, 'image_not_found', 'This image is unknown or has expired.'));
    setResponseHeaders(event, {
      'content-type': image.contentType,
      'content-length': image.bytes.length,
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
    return image.bytes;
  });
}

/** An error in the OpenAI error shape with its own request id. */
function answerError(event: H3Event, error: GatewayError): string {
  const requestId = createRequestId();
  const rendered = renderError(DEFAULT_STYLE, error, requestId);
  setResponseStatus(event, rendered.status);
  setResponseHeaders(event, { ...rendered.headers, 'x-request-id': requestId });
  return rendered.body;
}

/**
 * Everything under `/files/` for the image store of the current server settings (`getSettings` is read
 * per request, so a reload that moves `image_dir` is followed).
 */
export function serveStoredImage(getSettings: () => Pick<ServerSettings, 'imageDir'>): EventHandler {
  return createStoredImageHandler(() => getImageStore(getSettings()));
}
