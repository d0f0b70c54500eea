import type { TransformOpKind } from './op-kind.ts';
import { deleteAt, readPath } from './path.ts';

/** `drop: { at }` removes a field (nothing happens when it is missing). */
export const dropOp: TransformOpKind<'drop'> = {
  fields: { at: 'path' },
  apply(body, op) {
    return deleteAt(body, readPath(op.at));
  },
};
