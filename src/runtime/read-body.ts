import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors.ts';
import { readChunks } from './collect-chunks.ts';

/** Reads a whole (JSON) request body, answering 413 past `limit` bytes without reading further. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length']) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    readChunks(req, limit, (error, collected) => {
      if (!collected) return reject(new GatewayError(400, 'body_read_failed', `Could not read the request body: ${(error as Error).message}`));
      if (!collected.ended) {
        req.resume();
        return reject(tooLarge(limit));
      }
      resolve(collected.chunks.length === 1 ? collected.chunks[0] : Buffer.concat(collected.chunks, collected.size));
    });
  });
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(413, 'request_too_large', `The request body exceeds the limit of ${limit} bytes.`, {
    headers: { connection: 'close' },
  });
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
