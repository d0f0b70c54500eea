import { defaultOp } from './default.ts';
import { dropOp } from './drop.ts';
import { mapOp } from './map.ts';
import { moveOp } from './move.ts';
import type { TransformOpKind, TransformOpName } from './op-kind.ts';
import { replaceOp } from './replace.ts';
import { setOp } from './set.ts';

/** Every op kind by its YAML name. Adding an op = one file plus one line here. */
export const TRANSFORM_OPS: { readonly [K in TransformOpName]: TransformOpKind<K> } = {
  move: moveOp,
  set: setOp,
  default: defaultOp,
  replace: replaceOp,
  map: mapOp,
  drop: dropOp,
};

/** True when `name` is a known op kind. */
export function isTransformOpName(name: string): name is TransformOpName {
  return Object.hasOwn(TRANSFORM_OPS, name);
}
