import type { TransformOpKind } from './op-kind.ts';
import { copyValue, hasAt, readPath, setAt } from './path.ts';

/** `default: { at, value }` writes `value` at `at` only when the field is missing (null counts as sent). */
export const defaultOp: TransformOpKind<'default'> = {
  fields: { at: 'path', value: 'any' },
  apply(body, op) {
    const at = readPath(op.at);
    return hasAt(body, at) ? body : setAt(body, at, copyValue(op.value));
  },
};
