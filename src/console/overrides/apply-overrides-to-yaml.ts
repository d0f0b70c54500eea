import type { Overrides } from '../types.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * gateway.yaml's value (as parsed, before compiling) with the console's overrides applied in its own terms,
 * as the gateway serves it: a disabled key's entry removed, changed limits and budgets in place of the
 * key's own (`budget: null` removes it), issued keys appended (`sha256`; one whose name the file took since
 * is ignored: the file wins). Pure: `gateway diff --overrides` diffs the result against the file.
 */
export function applyOverridesToYaml(value: unknown, overrides: Overrides): unknown {
  if (!isRecord(value)) return value;
  const keys = Array.isArray(value.keys) ? value.keys : [];
  const names = new Set(keys.flatMap((entry) => (isRecord(entry) && typeof entry.name === 'string' ? [entry.name] : [])));
  const issued = overrides.issued.filter((key) => !names.has(key.name)).map((key) => ({ ...key }));
  const next = [...keys, ...issued].flatMap((entry) => {
    const override = isRecord(entry) && typeof entry.name === 'string' && Object.hasOwn(overrides.keys, entry.name) ? overrides.keys[entry.name] : undefined;
    if (!override) return [entry];
    if (override.disabled) return [];
    const changed: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
    if (override.limits) changed.limits = { ...override.limits };
    if (override.budget === null) delete changed.budget;
    else if (override.budget) changed.budget = { ...override.budget };
    return [changed];
  });
  return { ...value, keys: next };
}
