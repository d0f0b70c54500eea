import type { FieldRule, OpOf, TransformOp, TransformOpKind, TransformOpName } from './op-kind.ts';
import { checkFieldPath, isJsonObject } from './path.ts';
import { TRANSFORM_OPS, isTransformOpName } from './registry.ts';

/**
 * A problem in a transform's YAML. `path` leads from the transform's list to the offending node
 * (e.g. `[2, 'move', 'from']`), so the config checker can prefix `['transforms', name]` and report line:col.
 */
export interface TransformProblem {
  path: (string | number)[];
  message: string;
}

const OP_NAMES = Object.keys(TRANSFORM_OPS).join(', ');

/** Why `value` breaks `rule`, or undefined. */
function checkField(rule: FieldRule, value: unknown): string | undefined {
  if (value === undefined) return 'required';
  if (rule === 'path') return checkFieldPath(value);
  if (rule === 'string') return typeof value === 'string' ? undefined : 'must be a string';
  if (rule === 'non-empty-string') return typeof value === 'string' && value !== '' ? undefined : 'must be a non-empty string';
  if (rule === 'object') return isJsonObject(value) ? undefined : 'must be a mapping';
  return undefined;
}

/** Problems of one YAML op item (`{ move: { from, to } }`) at list index `index`. */
function checkItem(item: unknown, index: number): TransformProblem[] {
  const names = isJsonObject(item) ? Object.keys(item) : [];
  if (names.length !== 1) {
    return [{ path: [index], message: `each transform op is a mapping with exactly one key: ${OP_NAMES}` }];
  }
  const name = names[0];
  if (!isTransformOpName(name)) return [{ path: [index, name], message: `unknown transform op "${name}" (known: ${OP_NAMES})` }];
  const args = (item as Record<string, unknown>)[name];
  if (!isJsonObject(args)) return [{ path: [index, name], message: `${name} takes a mapping of ${Object.keys(TRANSFORM_OPS[name].fields).join(', ')}` }];
  const kind = TRANSFORM_OPS[name] as TransformOpKind<TransformOpName>;
  const problems: TransformProblem[] = [];
  for (const [field, rule] of Object.entries(kind.fields)) {
    const why = checkField(rule, args[field]);
    if (why) problems.push({ path: [index, name, field], message: `${name}.${field}: ${why}` });
  }
  for (const field of Object.keys(args)) {
    if (!Object.hasOwn(kind.fields, field)) problems.push({ path: [index, name, field], message: `${name} has no field "${field}"` });
  }
  if (problems.length === 0 && kind.check) {
    for (const problem of kind.check(readTransformOp(item) as OpOf<TransformOpName>)) {
      problems.push({ path: problem.field ? [index, name, problem.field] : [index, name], message: `${name}: ${problem.message}` });
    }
  }
  return problems;
}

/** Every problem of a transform's YAML op list (empty: it is valid and can be compiled). */
export function checkTransformOps(items: unknown): TransformProblem[] {
  if (!Array.isArray(items) || items.length === 0) return [{ path: [], message: 'a transform is a non-empty list of ops' }];
  return items.flatMap((item, index) => checkItem(item, index));
}

/** The compiled form of one checked YAML op item: `{ move: { from, to } }` -> `{ op: 'move', from, to }`. */
export function readTransformOp(item: unknown): TransformOp {
  const [[name, args]] = Object.entries(item as Record<string, Record<string, unknown>>);
  return { op: name, ...args } as TransformOp;
}

/** The compiled ops of a checked YAML op list. */
export function readTransformOps(items: readonly unknown[]): TransformOp[] {
  return items.map(readTransformOp);
}
