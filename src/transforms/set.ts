import type { TransformOpKind } from './op-kind.ts';
import { copyValue, readPath, setAt } from './path.ts';

/** `set: { at, value }` writes `value` at `at`, whatever was there. */
export const setOp: TransformOpKind<'set'> = {
  fields: { at: 'path', value: 'any' },
  apply(body, op) {
    return setAt(body, readPath(op.at), copyValue(op.value));
  },
};
