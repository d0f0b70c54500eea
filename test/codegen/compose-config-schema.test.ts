import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_FILES, readComposedConfigSchema } from '../../scripts/build.ts';
import { OPERATIONS } from '../../src/config/operations.ts';
import { composeConfigSchema } from '../../src/codegen/compose-config-schema.ts';
import { PROTOCOLS } from '../../src/protocols/index.ts';
import { STYLES } from '../../src/protocols/styles.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';

const base = readFileSync(CONFIG_SCHEMA_FILES.base, 'utf8');

describe('the composed config schema', () => {
  it('is the committed schemas/gateway.schema.json (stale when a fragment, a registry or the base changed)', async () => {
    expect(readFileSync(CONFIG_SCHEMA_FILES.composed, 'utf8')).toBe(await readComposedConfigSchema());
  });

  it('is the same text on every build', () => {
    expect(composeConfigSchema(base, PROTOCOLS, Object.keys(STYLES), OPERATIONS)).toBe(composeConfigSchema(base, PROTOCOLS, Object.keys(STYLES), OPERATIONS));
  });

  it("takes a protocol's vendor fields and auth kinds from its folder's fragment, the auth kind on its vendors only", () => {
    const plain = { ...PROTOCOLS.dashscope, configSchema: undefined } as ProtocolAdapter;
    const withFragment = { ...plain, configSchema: { vendorProperties: { zone: { type: 'string' } }, authKinds: { token: { type: 'string' } } } } as ProtocolAdapter;
    const without = JSON.parse(composeConfigSchema(base, { dashscope: plain }, ['openai'], ['chat'])).definitions.vendor;
    const composed = JSON.parse(composeConfigSchema(base, { dashscope: withFragment }, ['openai'], ['chat'])).definitions.vendor;
    expect(without.properties.zone).toBeUndefined();
    expect(without.allOf).toBeUndefined();
    expect(composed.properties.zone).toEqual({ type: 'string' });
    expect(composed.properties.auth.oneOf).toContainEqual({ type: 'object', additionalProperties: false, required: ['token'], properties: { token: { type: 'string' } } });
    expect(composed.allOf).toEqual([expect.objectContaining({ then: { properties: { protocol: expect.objectContaining({ const: 'dashscope' }) } } })]);
    expect(composed.properties.protocol.enum).toEqual(['dashscope']);
  });

  it('holds no protocol knowledge nor operation list in its base: the enums are empty and no auth kind is protocol-specific', () => {
    const vendor = JSON.parse(base).definitions.vendor;
    expect(vendor.properties.protocol.enum).toEqual([]);
    expect(JSON.parse(base).definitions.route.properties.op.enum).toEqual([]);
    expect(vendor.properties.region).toBeUndefined();
    expect(JSON.stringify(vendor)).not.toContain('sigv4');
  });
});
