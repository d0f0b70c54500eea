import type { JsonObject } from './path.ts';

/** One op of a declarative transform (issue 3), as YAML writes it; each op kind is implemented once beside this file. */
export type TransformOp =
  | { op: 'move'; from: string; to: string }
  | { op: 'set'; at: string; value: unknown }
  | { op: 'default'; at: string; value: unknown }
  | { op: 'replace'; at: string; find: string; with: string }
  | { op: 'map'; at: string; values: Record<string, unknown> }
  | { op: 'drop'; at: string };

/** The name of an op kind: move, set, default, replace, map or drop. */
export type TransformOpName = TransformOp['op'];

/** The op of one kind. */
export type OpOf<K extends TransformOpName> = Extract<TransformOp, { op: K }>;

/** What an op's field must hold: a field path, a string, a non-empty string, an object or any value. */
export type FieldRule = 'path' | 'string' | 'non-empty-string' | 'object' | 'any';

/** A problem with one field of one op (`field` undefined: the op as a whole). */
export interface OpProblem {
  field?: string;
  message: string;
}

/** One op kind: its YAML fields, its own checks and how it changes a body. Each kind is written once. */
export interface TransformOpKind<K extends TransformOpName> {
  /** The fields of the op's YAML object, all required. */
  fields: Readonly<Record<string, FieldRule>>;
  /** Problems the field rules cannot see (e.g. moving a field into itself). */
  check?(op: OpOf<K>): OpProblem[];
  /** A new body with the op applied; `body` is never changed. */
  apply(body: JsonObject, op: OpOf<K>): JsonObject;
}
