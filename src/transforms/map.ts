import type { TransformOpKind } from './op-kind.ts';
import { copyValue, getAt, readPath, setAt } from './path.ts';

/**
 * `map: { at, values }` replaces the value at `at` by `values[value]` when the table has that key
 * (strings, numbers and booleans are looked up by their text). Other values are left as they are.
 */
export const mapOp: TransformOpKind<'map'> = {
  fields: { at: 'path', values: 'object' },
  apply(body, op) {
    const at = readPath(op.at);
    const value = getAt(body, at);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return body;
    const key = String(value);
    if (!Object.hasOwn(op.values, key)) return body;
    return setAt(body, at, copyValue(op.values[key]));
  },
};
