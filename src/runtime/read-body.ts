import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors.ts';
import { readChunks } from './collect-chunks.ts';

/**
 * Reads a whole (JSON) request body, answering 413 past `limit` bytes without reading further, and 408
 * when it has not arrived within `timeoutMs` (0: no deadline). The rest of a refused upload is left to
 * {@link drainRequest} by whoever answers.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs = 0): Promise<Buffer> {
  if (Number(req.headers['content-length']) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = readChunks(req, limit, (error, collected) => {
      if (timer !== undefined) clearTimeout(timer);
      if (!collected) return reject(new GatewayError(400, 'body_read_failed', `Could not read the request body: ${(error as Error).message}`));
      if (!collected.ended) return reject(tooLarge(limit));
      resolve(collected.chunks.length === 1 ? collected.chunks[0] : Buffer.concat(collected.chunks, collected.size));
    });
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        stop();
        reject(getBodyTimeoutError());
      }, timeoutMs);
    }
  });
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(413, 'request_too_large', `The request body exceeds the limit of ${limit} bytes.`);
}

/** The 408 of a request whose body did not arrive in time (sent before the body ended, so it closes the connection). */
export function getBodyTimeoutError(): GatewayError {
  return new GatewayError(408, 'request_timeout', 'The request body did not arrive in time.');
}

/** Parses a JSON object body, answering 400 for malformed JSON or a non-object. */
export function parseJsonBody(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new GatewayError(400, 'invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError(400, 'invalid_json', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
