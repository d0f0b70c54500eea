import { createHmac, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../errors.ts';

/** What a task id handed to a client carries: model, vendor task id and the owning key. */
export interface TaskClaims {
  model: string;
  task: string;
  key: string;
  /** Where the id may be used (absent: `/v1/videos`; `native:<vendor>` for vendor-native entries). */
  scope?: string;
}

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 32);
}

/** Wraps a vendor task id into a signed id naming the model and owning key, so lookups need no state. */
export function encodeTaskId(claims: TaskClaims, secret: string): string {
  const list = [claims.model, claims.task, claims.key];
  if (claims.scope !== undefined) list.push(claims.scope);
  const payload = Buffer.from(JSON.stringify(list)).toString('base64url');
  return `task_${payload}.${sign(payload, secret)}`;
}

/**
 * Verifies and opens a task id; a forged, foreign or malformed id, or one made for another `scope`, is
 * 404 (no hint that it exists).
 */
export function decodeTaskId(id: string, secret: string, keyName: string, scope?: string): TaskClaims {
  const notFound = new GatewayError(404, 'task_not_found', `No task with id "${id.slice(0, 80)}".`);
  const match = /^task_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{32})$/.exec(id);
  if (!match) throw notFound;
  const expected = Buffer.from(sign(match[1], secret));
  if (!timingSafeEqual(expected, Buffer.from(match[2]))) throw notFound;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
  } catch {
    throw notFound;
  }
  if (!Array.isArray(claims) || claims.length !== (scope === undefined ? 3 : 4) || claims[2] !== keyName || claims[3] !== scope) throw notFound;
  return { model: String(claims[0]), task: String(claims[1]), key: String(claims[2]), ...(scope === undefined ? {} : { scope }) };
}
