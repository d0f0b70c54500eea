import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledConfig, KeyEntry } from '../../../src/config/types.ts';
import { applyOverridesToYaml } from '../../../src/console/overrides/apply-overrides-to-yaml.ts';
import { mergeOverrides } from '../../../src/console/overrides/merge-overrides.ts';
import { readOverrides } from '../../../src/console/overrides/read-overrides.ts';

const DIGEST = 'a'.repeat(64);
const BASE = { keys: [{ name: 'team', secret: { env: 'TEAM_KEY' }, models: ['*'], limits: { rpm: 10 }, strict: false }] } as unknown as CompiledConfig;

/** Why `key` is not a key gateway.yaml could hold (undefined when it is one). */
function findKeyProblem(key: KeyEntry): string | undefined {
  if (typeof key.name !== 'string' || !key.name) return 'name';
  if (!Array.isArray(key.models) || !key.models.every((m) => typeof m === 'string')) return 'models';
  if ('sha256' in key.secret && !/^[0-9a-f]{64}$/.test(key.secret.sha256)) return 'sha256';
  for (const value of Object.values(key.limits)) if (!Number.isInteger(value) || (value as number) < 0) return 'limits';
  if (key.budget && !(key.budget.usd > 0 && key.budget.usd <= 1e6 && ['day', 'month'].includes(key.budget.period))) return 'budget';
  return undefined;
}

const odd = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, -1, 1.5, 1e308, '10', 'day', [], {}, ['*'], [5]));
const limits = fc.oneof(fc.record({ rpm: odd, tpm: fc.nat(), concurrency: odd }, { requiredKeys: [] }), odd);
const budget = fc.oneof(fc.record({ usd: fc.oneof(fc.double({ min: 0.01, max: 100, noNaN: true }), odd), period: fc.oneof(fc.constantFrom('day', 'month'), odd), reserve_usd: odd }, { requiredKeys: [] }), odd);
const override = fc.oneof(fc.record({ disabled: fc.oneof(fc.boolean(), odd), limits, budget }, { requiredKeys: [] }), odd);
const issued = fc.oneof(fc.record({ name: fc.oneof(fc.constantFrom('new-key', 'team', ''), odd), sha256: fc.oneof(fc.constant(DIGEST), odd), models: fc.oneof(fc.constant(['gpt-*']), odd), limits, budget }, { requiredKeys: [] }), odd);
/** A stored text: the overrides' shape with any part odd, any JSON, or not JSON. */
const storedText = fc.oneof(
  { weight: 4, arbitrary: fc.record({ keys: fc.oneof(fc.dictionary(fc.constantFrom('team', 'other', '__proto__'), override), odd), issued: fc.oneof(fc.array(issued, { maxLength: 3 }), odd) }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string() },
);

describe('reading the stored console overrides (file or Redis value, at start and at each poll)', () => {
  it('refuses an issued key without models or digest, rather than failing later when a snapshot is made of it', () => {
    expect(() => readOverrides('{"keys":{},"issued":[{}]}')).toThrow(/overrides/);
    expect(() => readOverrides('{"keys":{"team":{"limits":{"rpm":"ten"}}},"issued":[]}')).toThrow(/overrides/);
  });

  it('any stored text is refused or merges into keys gateway.yaml could hold', () => {
    fc.assert(
      fc.property(storedText, (text) => {
        let overrides;
        try {
          overrides = readOverrides(text);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          return;
        }
        const merged = mergeOverrides(BASE, overrides);
        for (const key of merged.keys) expect(findKeyProblem(key), JSON.stringify(key)).toBeUndefined();
      }),
      { seed: 20261124, numRuns: 300 },
    );
  });

  it('keeps what was written by the console itself', () => {
    const text = JSON.stringify({ keys: { team: { limits: { rpm: 1 }, budget: null }, other: { disabled: true } }, issued: [{ name: 'new-key', sha256: DIGEST, models: ['gpt-*'], limits: {}, budget: { usd: 5, period: 'day' } }] });
    expect(readOverrides(text)).toEqual(JSON.parse(text));
  });

  it('reads a null limit (stored by consoles that let Infinity by) as 0, no limit, alike for the gateway, the console and gateway diff', () => {
    const text = JSON.stringify({ keys: { team: { limits: { rpm: null, tpm: 5 } } }, issued: [{ name: 'new-key', sha256: DIGEST, models: ['*'], limits: { concurrency: null } }] });
    const overrides = readOverrides(text);
    expect(overrides).toEqual({ keys: { team: { limits: { rpm: 0, tpm: 5 } } }, issued: [{ name: 'new-key', sha256: DIGEST, models: ['*'], limits: { concurrency: 0 } }] });
    const served = mergeOverrides(BASE, overrides).keys;
    expect(served.map((key) => [key.name, key.limits])).toEqual([['team', { rpm: 0, tpm: 5 }], ['new-key', { concurrency: 0 }]]);
    const yaml = applyOverridesToYaml({ keys: [{ name: 'team', key: 'env:TEAM_KEY', models: ['*'], limits: { rpm: 10 } }] }, overrides) as { keys: { limits?: unknown }[] };
    expect(yaml.keys.map((key) => key.limits)).toEqual([{ rpm: 0, tpm: 5 }, { concurrency: 0 }]);
  });
});
