import type { BudgetSpec, CompiledConfig, KeyEntry } from '../../config/types.ts';
import type { IssuedKey, KeyOverride, Overrides } from '../types.ts';

/** An empty set of overrides: gateway.yaml as written. */
export function createEmptyOverrides(): Overrides {
  return { keys: {}, issued: [] };
}

function compileBudget(budget: NonNullable<KeyOverride['budget']>): BudgetSpec {
  return { usd: budget.usd, period: budget.period, ...(budget.reserve_usd === undefined ? {} : { reserveUsd: budget.reserve_usd }) };
}

/** A key with its override applied, or undefined when the override disables it. */
function applyKeyOverride(key: KeyEntry, override: KeyOverride | undefined): KeyEntry | undefined {
  if (!override) return key;
  if (override.disabled) return undefined;
  const next: KeyEntry = { ...key };
  if (override.limits) next.limits = { ...override.limits };
  if (override.budget === null) delete next.budget;
  else if (override.budget) next.budget = compileBudget(override.budget);
  return next;
}

/** The compiled key of a key issued in the console. */
function compileIssuedKey(issued: IssuedKey): KeyEntry {
  return {
    name: issued.name,
    secret: { sha256: issued.sha256 },
    models: [...issued.models],
    limits: { ...(issued.limits ?? {}) },
    ...(issued.budget ? { budget: compileBudget(issued.budget) } : {}),
    strict: false,
  };
}

/**
 * gateway.yaml's compiled config with the console's overrides applied: a disabled key is left out (its
 * requests get 401 like an unknown key), changed limits and budgets replace the key's own, issued keys are
 * added (one whose name gateway.yaml took since is ignored: the file wins). Pure: the caller swaps the snapshot.
 */
export function mergeOverrides(config: CompiledConfig, overrides: Overrides): CompiledConfig {
  if (Object.keys(overrides.keys).length === 0 && overrides.issued.length === 0) return config;
  const names = new Set(config.keys.map((key) => key.name));
  const issued = overrides.issued.filter((key) => !names.has(key.name)).map(compileIssuedKey);
  const keys = [...config.keys, ...issued]
    .map((key) => applyKeyOverride(key, overrides.keys[key.name]))
    .filter((key): key is KeyEntry => key !== undefined);
  return { ...config, keys };
}
