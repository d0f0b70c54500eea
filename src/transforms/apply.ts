import type { OpOf, TransformOp, TransformOpKind, TransformOpName } from './op-kind.ts';
import type { JsonObject } from './path.ts';
import { TRANSFORM_OPS } from './registry.ts';

/**
 * Runs a transform's ops in order over a JSON body and returns the new body; `body` itself is never
 * changed (objects along changed paths are copied). Throws a 400 GatewayError naming the field when the
 * body has a non-object where an op needs to create a field inside it.
 */
export function applyTransform(ops: readonly TransformOp[], body: JsonObject): JsonObject {
  let result = body;
  for (const op of ops) {
    const kind = TRANSFORM_OPS[op.op] as TransformOpKind<TransformOpName>;
    result = kind.apply(result, op as OpOf<TransformOpName>);
  }
  return result;
}
