import { pipeline, type Readable, type Transform } from 'node:stream';
import { request } from 'undici';
import { GatewayError } from '../errors.ts';
import { createDecoderChain } from '../runtime/answer-decoder.ts';

/** The largest image the gateway downloads from a vendor URL. */
export const MAX_IMAGE_BYTES = 32 * 1024 * 1024;

/** Image bytes and their media type. */
export interface FetchedImage {
  bytes: Buffer;
  contentType: string;
}

/** Limits of one download: the request's deadline and signal, and a size bound. */
export interface FetchLimits {
  deadline: number;
  signal: AbortSignal;
  maxBytes?: number;
}

function fetchError(message: string, status = 502, code = 'image_fetch_failed'): GatewayError {
  return new GatewayError(status, code, message);
}

type Body = AsyncIterable<Buffer> & { destroy(): unknown; on(event: 'error', listener: () => void): unknown };

const ignore = () => undefined;

/** Stops reading a body (its abort error is expected and ignored). */
function discard(body: Body): void {
  body.on('error', ignore);
  body.destroy();
}

/** Reads a body up to `maxBytes`; undefined when it is larger (the body is then discarded). */
async function readBounded(body: Body, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The body decoded from its content coding (the bound then counts decoded bytes: a small coded body cannot
 * fill the memory); a 502 for a coding the gateway cannot decode.
 */
function readDecoded(body: Body & Readable, coding: string | string[] | undefined): Body {
  const chain = createDecoderChain('image host', coding);
  if (chain === undefined) return body;
  if (chain instanceof GatewayError) {
    discard(body);
    throw fetchError('The generated image came in a content coding the gateway cannot decode.');
  }
  // Any stage's error destroys the last one, where the read sees it.
  return pipeline([body, ...chain], ignore) as Transform;
}

/**
 * Downloads an image a vendor linked to, within the request's deadline and at most `maxBytes`
 * (32 MiB by default). Failures are 502 (504 when the deadline passes); vendor URLs are never echoed.
 */
export async function fetchImage(url: string, limits: FetchLimits): Promise<FetchedImage> {
  const maxBytes = limits.maxBytes ?? MAX_IMAGE_BYTES;
  const left = limits.deadline - Date.now();
  if (left <= 0) throw fetchError('No time was left to download the generated image.', 504, 'upstream_timeout');
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw fetchError('The vendor answered an image URL the gateway cannot download.');
  }
  const timeout = AbortSignal.timeout(left);
  try {
    const response = await request(parsed, {
      method: 'GET',
      signal: AbortSignal.any([limits.signal, timeout]),
      headersTimeout: left,
      bodyTimeout: left,
    });
    if (response.statusCode !== 200) {
      discard(response.body);
      throw fetchError(`Downloading the generated image failed (HTTP ${response.statusCode}).`);
    }
    const declared = Number(response.headers['content-length']);
    if (declared > maxBytes) {
      discard(response.body);
      throw fetchError(`The generated image is larger than ${maxBytes} bytes.`, 502, 'image_too_large');
    }
    const bytes = await readBounded(readDecoded(response.body, response.headers['content-encoding']), maxBytes);
    if (!bytes) throw fetchError(`The generated image is larger than ${maxBytes} bytes.`, 502, 'image_too_large');
    const type = response.headers['content-type'];
    return { bytes, contentType: typeof type === 'string' ? type.split(';')[0].trim() : 'image/png' };
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    if (limits.signal.aborted) throw new GatewayError(499, 'client_closed_request', 'The client closed the request.');
    if (timeout.aborted) throw fetchError('Downloading the generated image took longer than the time left.', 504, 'upstream_timeout');
    throw fetchError('Downloading the generated image failed.');
  }
}
