import type { ImageOptions } from '../config/types.ts';
import type { OpCall } from '../runtime/types.ts';
import { mapBounded } from './bounded.ts';
import { fetchImage } from './fetch-image.ts';
import { STORED_IMAGE_PATH } from './serve.ts';
import { getImageStore } from './store-registry.ts';
import type { ImageDatum, ResponseFormat } from './types.ts';

/** Images downloaded or stored at once per request. */
const DOWNLOAD_CONCURRENCY = 4;

/** The base of the gateway's own links: `server.public_url`, else the scheme and Host of the request. */
export function getPublicBaseUrl(call: OpCall): string {
  const { server } = call.ctx.snapshot.config;
  if (server.publicUrl) return server.publicUrl;
  return `${server.tls ? 'https' : 'http'}://${call.ctx.req.headers.host ?? 'localhost'}`;
}

/** True when some image needs the gateway's work (download, base64, re-hosting). */
function needsWork(data: readonly ImageDatum[], format: ResponseFormat, rehost: boolean): boolean {
  return data.some((datum) => (format === 'b64_json' ? datum.b64_json === undefined : rehost && datum.url !== undefined));
}

/**
 * Turns the vendor's images into what the client asked for: base64 downloaded from URL-only vendors
 * when `b64_json` was asked for, and, for models with `rehost`, the images stored and linked under the
 * gateway's own unguessable URLs (valid 24 h). Downloads share the request's deadline and signal.
 */
export async function finishImages(
  call: OpCall,
  data: ImageDatum[],
  format: ResponseFormat,
  options: ImageOptions,
): Promise<ImageDatum[]> {
  if (!needsWork(data, format, options.rehost)) return data;
  const { ctx } = call;
  const limits = { deadline: ctx.deadline, signal: ctx.signal };
  const store = options.rehost && format === 'url' ? getImageStore(ctx.snapshot.config.server) : undefined;
  const base = store ? getPublicBaseUrl(call) : '';
  return mapBounded(data, DOWNLOAD_CONCURRENCY, ctx.signal, async (datum) => {
    const { url, b64_json, ...rest } = datum;
    if (format === 'b64_json') {
      if (b64_json !== undefined || url === undefined) return datum;
      return { b64_json: (await fetchImage(url, limits)).bytes.toString('base64'), ...rest };
    }
    if (!store || url === undefined) return datum;
    const id = await store.put((await fetchImage(url, limits)).bytes);
    return { url: `${base}${STORED_IMAGE_PATH}${id}`, ...rest };
  });
}
