import type { IncomingMessage } from 'node:http';
import type { NativeEntry } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { clipClientText } from '../lib/clip-text.ts';
import { resolveModel } from './resolve-model.ts';
import { decodeTaskId, encodeTaskId } from './task-id.ts';
import type { RequestContext } from './types.ts';

/**
 * What a path parameter of a vendor-native route may be once percent-decoded: unreserved URL characters
 * only (so no `/`, `\`, `?`, `#`, `%` or control character reaches the vendor's path), not only dots
 * (`.`, `..`), at most 256 characters.
 */
const PARAM_VALUE = /^(?!\.+$)[A-Za-z0-9._~-]{1,256}$/;

/** True for a request that announces no body: a native POST (a task cancel) may come without one. */
export function hasNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined);
}

/** The scope a native entry's task ids carry: usable by the native entries of the same vendor only. */
export function getNativeTaskScope(entry: NativeEntry): string {
  return `native:${entry.vendor}`;
}

/** Throws 400 `invalid_path` when a path parameter of a native route could leave its path segment. */
export function checkNativeParams(params: Record<string, string>): void {
  for (const name in params) {
    if (!PARAM_VALUE.test(params[name])) {
      throw new GatewayError(400, 'invalid_path', `The path parameter \`${name}\` may hold only letters, digits and . _ ~ - (not only dots).`, {
        param: name,
      });
    }
  }
}

/**
 * Decides whether the key may call a native entry and which model the request is for: the model the
 * body (or the signed task id) names goes through the key's model allowlist and must be served by the
 * entry's vendor; a request naming no model needs the key's grant of the entry (`keys[].native`).
 * A task id is opened here (404 unless this key created it through an entry of the same vendor), and
 * `ctx.params.task_id` becomes the vendor's own id.
 */
export function authorizeNative(ctx: RequestContext, entry: NativeEntry, body: any): string | undefined {
  const { from, name } = ctx.route.model;
  let modelId: string | undefined;
  if (from === 'body') {
    const value = body?.[name];
    if (typeof value !== 'string' || value === '') {
      throw new GatewayError(400, 'missing_model', `The request names no model (expected in body "${name}").`, { param: name });
    }
    modelId = value;
  } else if (from === 'task') {
    const claims = decodeTaskId(ctx.params[name] ?? '', ctx.snapshot.taskSecret, ctx.key!.config.name, getNativeTaskScope(entry));
    ctx.params[name] = claims.task;
    checkNativeParams({ [name]: claims.task });
    if (claims.model !== '') modelId = claims.model;
  }
  if (modelId === undefined) {
    if (!ctx.key!.config.native?.includes(entry.name)) {
      throw new GatewayError(403, 'native_not_granted', `This key may not call the vendor-native entry "${entry.name}".`);
    }
    return undefined;
  }
  const model = resolveModel(ctx, modelId);
  const target = model.targets.find((t) => t.vendor === entry.vendor);
  if (!target) {
    throw new GatewayError(400, 'model_not_on_vendor', `The model "${clipClientText(modelId)}" is not served by the vendor of this entry.`, {
      param: 'model',
    });
  }
  ctx.modelId = modelId;
  ctx.model = model;
  ctx.target = target;
  return modelId;
}

/** Replaces the vendor's task id at `entry.taskId` in a JSON answer by a signed id bound to the key. */
export function signNativeTaskId(ctx: RequestContext, entry: NativeEntry, answer: unknown): boolean {
  const path = entry.taskId;
  if (!path) return false;
  let holder: any = answer;
  for (let i = 0; i < path.length - 1; i++) {
    holder = holder !== null && typeof holder === 'object' ? holder[path[i]] : undefined;
  }
  const last = path[path.length - 1];
  if (holder === null || typeof holder !== 'object' || typeof holder[last] !== 'string' || holder[last] === '') return false;
  holder[last] = encodeTaskId(
    { model: ctx.modelId ?? '', task: holder[last], key: ctx.key!.config.name, scope: getNativeTaskScope(entry) },
    ctx.snapshot.taskSecret,
  );
  return true;
}
