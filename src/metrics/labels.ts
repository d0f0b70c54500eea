import type { Operation } from '../config/types.ts';

/** GenAI `gen_ai.operation.name` values of the gateway's operations (others: the operation, underscored). */
const OPERATION_NAMES: Partial<Record<Operation, string>> = {
  chat: 'chat',
  messages: 'chat',
  responses: 'chat',
  'generate-content': 'generate_content',
  'stream-generate-content': 'generate_content',
  completions: 'text_completion',
  embeddings: 'embeddings',
};

const operationNames = new Map<string, string>();

/** The `gen_ai_operation_name` of an operation: one of a fixed set. */
export function getOperationName(op: Operation | undefined): string {
  if (op === undefined) return 'unknown';
  let name = operationNames.get(op);
  if (name === undefined) operationNames.set(op, (name = OPERATION_NAMES[op] ?? op.replaceAll('-', '_')));
  return name;
}

/** How many distinct response models one target may report before the rest count as `other`. */
export const RESPONSE_MODELS_PER_TARGET = 20;

/**
 * Caps the distinct values a label takes per owner: the first `limit` values pass, any later one is
 * `other`. Bounds labels whose values come from outside the config (what a vendor says it served).
 */
export function createValueCap(limit: number): (owner: string, value: string) => string {
  const seen = new Map<string, Set<string>>();
  return (owner, value) => {
    let values = seen.get(owner);
    if (!values) seen.set(owner, (values = new Set()));
    if (values.has(value)) return value;
    if (values.size >= limit) return 'other';
    values.add(value);
    return value;
  };
}
