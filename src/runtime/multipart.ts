import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { GatewayError, toGatewayError } from '../errors.ts';
import { createChunkReader, type ChunkReader } from './multipart-chunks.ts';
import { createReplayBody } from './multipart-replay.ts';
import { createFieldSniffer, type FieldSniffer } from './multipart-sniff.ts';
import { createSpool, type Spool } from './multipart-spool.ts';

/** Options of {@link readMultipartModel}. */
export interface MultipartModelOptions {
  /** The form field holding the model id (e.g. `model`). */
  field: string;
  /** Largest upload accepted, in bytes, over the whole body (413 beyond). */
  limitBytes: number;
  /** Bytes before the field kept in memory before spooling to a temporary file (default 1 MiB). */
  memoryBytes?: number;
  /** Directory of the temporary file (default: the OS temp directory). */
  tmpDir?: string;
  /** Aborts reading (the request's signal); the error is the signal's GatewayError reason, else 499. */
  signal?: AbortSignal;
}

/** A multipart upload whose model field is known, ready to be forwarded unchanged. */
export interface MultipartModel {
  /** The value of the model field. */
  model: string;
  /** Replays the original request bytes in order, streaming the rest of the upload as it arrives. */
  body: Readable;
  /** The request's content type, boundary included (forward it with the body). */
  contentType: string;
  /** Stops the replay if it still runs and removes any temporary file (idempotent). */
  cleanup(): Promise<void>;
}

const DEFAULT_MEMORY_BYTES = 1024 * 1024;

/**
 * Reads a `multipart/form-data` request only as far as its model field, without buffering the upload:
 * bytes before the field are kept (memory, then a temporary file) and replayed by `body`, followed by
 * the rest of the live request with backpressure. Throws GatewayError 400 (malformed body, missing
 * field), 413 (over `limitBytes`, also raised later as the body's error) or 499 (client went away).
 */
export async function readMultipartModel(
  req: IncomingMessage,
  options: MultipartModelOptions,
): Promise<MultipartModel> {
  const { field, limitBytes, signal } = options;
  if (Number(req.headers['content-length']) > limitBytes) throw tooLarge(limitBytes);
  const sniffer = createFieldSniffer(req.headers, field);
  const contentType = req.headers['content-type']!;
  const source = createChunkReader(req);
  let received = 0;
  const live: ChunkReader = {
    async next() {
      let chunk: Buffer | null;
      try {
        chunk = await source.next();
      } catch (error) {
        throw error instanceof GatewayError ? error : clientClosed(error);
      }
      if (chunk !== null && (received += chunk.length) > limitBytes) throw tooLarge(limitBytes);
      return chunk;
    },
    release: source.release,
  };
  const spool = createSpool({ memoryBytes: options.memoryBytes ?? DEFAULT_MEMORY_BYTES, tmpDir: options.tmpDir });
  const stopSniffing = () => source.release(abortError(signal!));
  signal?.addEventListener('abort', stopSniffing, { once: true });

  let model: string;
  try {
    if (signal?.aborted) throw abortError(signal);
    model = await sniffModel(live, spool, sniffer, field);
    await spool.seal();
    // An abort during the last awaits released the source already, and its signal fires no more.
    if (signal?.aborted) throw abortError(signal);
  } catch (error) {
    source.release(error);
    await spool.cleanup();
    throw signal?.aborted ? abortError(signal) : toGatewayError(error);
  } finally {
    sniffer.destroy();
    signal?.removeEventListener('abort', stopSniffing);
  }

  const body = createReplayBody({
    memory: spool.memory,
    spoolPath: spool.path,
    live,
    onSpoolDone: () => void spool.cleanup(),
  });
  if (signal !== undefined) {
    const stopBody = () => body.destroy(abortError(signal));
    signal.addEventListener('abort', stopBody, { once: true });
    body.once('close', () => signal.removeEventListener('abort', stopBody));
  }
  return {
    model,
    body,
    contentType,
    cleanup() {
      if (!body.destroyed) body.destroy();
      return spool.cleanup();
    },
  };
}

/** Feeds the upload to the sniffer, keeping every byte in the spool, until the field is known. */
async function sniffModel(live: ChunkReader, spool: Spool, sniffer: FieldSniffer, field: string): Promise<string> {
  let value: string | undefined;
  for (;;) {
    const chunk = await live.next();
    if (chunk === null) {
      value = await sniffer.end();
      break;
    }
    await spool.append(chunk);
    value = await sniffer.write(chunk);
    if (value !== undefined) break;
  }
  if (value === undefined || value === '') {
    const message = value === undefined ? `The multipart field \`${field}\` is required.` : `The multipart field \`${field}\` is empty.`;
    throw new GatewayError(400, 'missing_model', message, { param: field });
  }
  return value;
}

function tooLarge(limitBytes: number): GatewayError {
  return new GatewayError(413, 'request_too_large', `The request body exceeds the limit of ${limitBytes} bytes.`);
}

function clientClosed(cause: unknown): GatewayError {
  return new GatewayError(499, 'client_closed_request', 'The client closed the request before the upload ended.', {
    cause,
  });
}

function abortError(signal: AbortSignal): GatewayError {
  const { reason } = signal;
  if (reason instanceof GatewayError) return reason;
  return new GatewayError(499, 'client_closed_request', 'The request was aborted.', { cause: reason });
}
