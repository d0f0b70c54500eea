import type { H3Event } from 'h3';
import { getRequestHeader, readRawBody } from 'h3';
import { GatewayError } from '../errors.ts';

/** The largest console request body: a key's fields are a few hundred bytes. */
const MAX_BYTES = 64 * 1024;

/** A console request's JSON object body; 413 past 64 KB, 400 `invalid_json` when it is not a JSON object. */
export async function readJsonBody(event: H3Event): Promise<Record<string, unknown>> {
  if (Number(getRequestHeader(event, 'content-length') ?? 0) > MAX_BYTES) {
    throw new GatewayError(413, 'body_too_large', 'A console request body is at most 64 KB.');
  }
  const text = (await readRawBody(event, 'utf8')) ?? '';
  if (text.length > MAX_BYTES) throw new GatewayError(413, 'body_too_large', 'A console request body is at most 64 KB.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GatewayError(400, 'invalid_json', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
