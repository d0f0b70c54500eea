import type { TransformOpKind } from './op-kind.ts';
import { deleteAt, getAt, readPath, setAt } from './path.ts';

/**
 * `move: { from, to }` moves (renames) a field, creating objects on the way to `to` and replacing
 * what was there. A missing `from` leaves the body as it is.
 */
export const moveOp: TransformOpKind<'move'> = {
  fields: { from: 'path', to: 'path' },
  check(op) {
    if (op.from === op.to) return [{ field: 'to', message: 'move needs a `to` different from `from`' }];
    if (op.to.startsWith(`${op.from}.`)) return [{ field: 'to', message: `cannot move \`${op.from}\` into itself` }];
    return [];
  },
  apply(body, op) {
    const from = readPath(op.from);
    const value = getAt(body, from);
    if (value === undefined) return body;
    return setAt(deleteAt(body, from), readPath(op.to), value);
  },
};
