import type { CompiledConfig, KeyEntry } from '../config/types.ts';
import type { KeyUsage, Overrides } from './types.ts';

/** A key as the console lists it: never its secret, its digest or the variable holding it. */
export interface KeyView {
  name: string;
  models: string[];
  /** The limits in force (0 or absent: none); `defaults` when they come from `server.limits`. */
  limits: { rpm?: number; tpm?: number; concurrency?: number };
  budget?: { usd: number; period: string };
  admin: boolean;
  disabled: boolean;
  /** Issued in the console (not in gateway.yaml). */
  issued: boolean;
  /** Changed by a console override (limits, budget or disabled). */
  overridden: boolean;
  usage: KeyUsage;
}

function showKey(key: KeyEntry, defaults: CompiledConfig['server']['defaultLimits']) {
  const limits = { ...defaults, ...key.limits };
  return {
    name: key.name,
    models: key.models,
    limits,
    ...(key.budget ? { budget: { usd: key.budget.usd, period: key.budget.period } } : {}),
    admin: key.admin === true,
  };
}

/**
 * Every key of gateway.yaml and every key issued in the console, with the limits in force (a disabled key
 * with those it had), and its live usage (`readUsage`: the usage aggregate's). `serving` is the config with
 * the overrides applied, `base` gateway.yaml's.
 */
export function describeKeys(base: CompiledConfig, serving: CompiledConfig, overrides: Overrides, readUsage: (name: string) => KeyUsage): KeyView[] {
  const inForce = new Map(serving.keys.map((key) => [key.name, key]));
  const issuedNames = new Set(overrides.issued.map((key) => key.name));
  const known = [...base.keys, ...overrides.issued.filter((key) => !base.keys.some((b) => b.name === key.name)).map((key) => ({
    name: key.name, models: key.models, limits: key.limits ?? {}, secret: { sha256: '' }, strict: false,
  } as KeyEntry))];
  return known.map((key) => ({
    ...showKey(inForce.get(key.name) ?? key, serving.server.defaultLimits),
    disabled: !inForce.has(key.name),
    issued: issuedNames.has(key.name) && !base.keys.some((b) => b.name === key.name),
    overridden: overrides.keys[key.name] !== undefined,
    usage: readUsage(key.name),
  }));
}
