import type { TransformOpKind } from './op-kind.ts';
import { getAt, readPath, setAt } from './path.ts';

/**
 * `replace: { at, find, with }` replaces every occurrence of the literal text `find` in the string at
 * `at` (e.g. `1024x1024` -> `1024*1024`). Missing fields and non-strings are left as they are.
 */
export const replaceOp: TransformOpKind<'replace'> = {
  fields: { at: 'path', find: 'non-empty-string', with: 'string' },
  apply(body, op) {
    const at = readPath(op.at);
    const value = getAt(body, at);
    if (typeof value !== 'string' || !value.includes(op.find)) return body;
    return setAt(body, at, value.split(op.find).join(op.with));
  },
};
