import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffConfigs } from '../../src/config/diff.ts';
import { formatDiffJson, formatDiffText } from '../../src/config/format-diff.ts';
import { applyOverridesToYaml } from '../../src/console/overrides/apply-overrides-to-yaml.ts';
import type { Overrides } from '../../src/console/types.ts';

/** The overrides in gateway.yaml's own terms, as `gateway diff --overrides` compares them: any input, no digest out. */
const name = fc.constantFrom('team', 'ops', 'new', '__proto__', 'constructor', 'a b');
const digest = fc.stringMatching(/^[0-9a-f]{64}$/);
const limits = fc.record({ rpm: fc.nat(1000), tpm: fc.nat(100_000) }, { requiredKeys: [] });
const overridesArbitrary: fc.Arbitrary<Overrides> = fc.record({
  keys: fc.dictionary(name, fc.record({ disabled: fc.boolean(), limits, budget: fc.option(fc.record({ usd: fc.nat(100), period: fc.constantFrom('day' as const, 'month' as const) }), { nil: null }) }, { requiredKeys: [] })),
  issued: fc.array(fc.record({ name, sha256: digest, models: fc.array(fc.constantFrom('gpt-4o', '*')) })),
});
const fileArbitrary = fc.oneof(
  fc.anything(),
  fc.record({ keys: fc.array(fc.oneof(fc.anything(), fc.record({ name, key: fc.constant('env:X'), limits }, { requiredKeys: ['name'] }))) }),
);

describe('applyOverridesToYaml', () => {
  it('never throws, leaves disabled keys out, adds issued keys, and the diff never shows a digest', () => {
    fc.assert(
      fc.property(fileArbitrary, overridesArbitrary, (file, overrides) => {
        const applied = applyOverridesToYaml(file, overrides) as { keys?: { name?: string }[] };
        const changes = diffConfigs(file, applied);
        const printed = formatDiffText(changes) + formatDiffJson(changes);
        for (const issued of overrides.issued) expect(printed).not.toContain(issued.sha256);
        if (applied && typeof applied === 'object' && Array.isArray(applied.keys)) {
          for (const [keyName, override] of Object.entries(overrides.keys)) {
            if (override.disabled) expect(applied.keys.some((entry) => entry?.name === keyName)).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('changes limits and budgets in place and keeps a key the file took over an issued one of the same name', () => {
    const file = { server: { port: 1 }, keys: [{ name: 'team', key: 'env:T', limits: { rpm: 5 }, budget: { usd: 1, period: 'day' } }] };
    const applied = applyOverridesToYaml(file, {
      keys: { team: { limits: { rpm: 1 }, budget: null } },
      issued: [{ name: 'team', sha256: 'a'.repeat(64), models: [] }, { name: 'other', sha256: 'b'.repeat(64), models: ['*'] }],
    });
    expect(applied).toEqual({ server: { port: 1 }, keys: [{ name: 'team', key: 'env:T', limits: { rpm: 1 } }, { name: 'other', sha256: 'b'.repeat(64), models: ['*'] }] });
    expect(file.keys[0].limits.rpm).toBe(5);
  });
});
