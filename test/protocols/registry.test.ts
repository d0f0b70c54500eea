import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emitProtocolTypes } from '../../src/codegen/emit-protocol-types.ts';
import { PROTOCOLS } from '../../src/protocols/index.ts';
import { DEFAULT_STYLE, STYLES } from '../../src/protocols/styles.ts';

const schema = JSON.parse(readFileSync('schemas/gateway.schema.json', 'utf8'));

/** Every `enum` under a property named `name` anywhere in the schema. */
function findEnums(node: unknown, name: string): unknown[][] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => {
    const own = key === name && value && typeof value === 'object' && Array.isArray((value as any).enum) ? [(value as any).enum] : [];
    return [...own, ...findEnums(value, name)];
  });
}

describe('the protocol registry', () => {
  it('names each adapter by its own protocol', () => {
    for (const [name, adapter] of Object.entries(PROTOCOLS)) expect(adapter.protocol).toBe(name);
  });

  it("agrees with the config schema's protocol and style enums", () => {
    const protocolEnums = findEnums(schema, 'protocol');
    const styleEnums = findEnums(schema, 'style');
    expect(protocolEnums.length).toBeGreaterThan(0);
    expect(styleEnums.length).toBeGreaterThan(0);
    for (const values of protocolEnums) expect([...values].sort()).toEqual(Object.keys(PROTOCOLS).sort());
    for (const values of styleEnums) expect([...values].sort()).toEqual(Object.keys(STYLES).sort());
  });

  it('lists as styles exactly the protocols that declare a client style, each once', () => {
    const declared = Object.values(PROTOCOLS).flatMap((adapter) => ('style' in adapter && adapter.style ? [adapter.style] : []));
    expect([...declared].sort()).toEqual(Object.keys(STYLES).sort());
    expect(Object.keys(STYLES)).toContain(DEFAULT_STYLE);
  });

  it('is the source of the committed protocol option sets (generated/protocols.ts) and of the schema enums the Protocol and Style types come from', () => {
    expect(readFileSync('generated/protocols.ts', 'utf8')).toBe(emitProtocolTypes(PROTOCOLS));
    const schema = JSON.parse(readFileSync('schemas/gateway.schema.json', 'utf8'));
    expect(schema.definitions.vendor.properties.protocol.enum).toEqual(Object.keys(PROTOCOLS));
    expect(schema.definitions.route.properties.style.enum).toEqual(Object.keys(STYLES));
  });
});
