/**
 * schemas/gateway.schema.json, composed at build time from the base schema (schemas/gateway.base.schema.json)
 * and the registries: every `protocol`, `style` and `op` enum lists the registries' names (and OPERATIONS), and each protocol
 * folder's fragment adds its vendor fields, request facts and auth kinds (an auth kind allowed only on the vendors of the
 * protocols that contribute it). Deterministic: registry order, two-space JSON.
 */
import type { ProtocolAdapter } from '../protocols/types.ts';

type Json = any;

/** Sets every `enum` held by a property named in `names` (`protocol`, `style`, `op`) to its list. */
function fillEnums(node: Json, names: Record<string, string[]>): void {
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries<Json>(node)) {
    if (key in names && value && typeof value === 'object' && Array.isArray(value.enum)) value.enum = [...names[key]!];
    fillEnums(value, names);
  }
}

/** The composed schema's text from the base schema's text. */
export function composeConfigSchema(
  baseText: string,
  registry: Readonly<Record<string, ProtocolAdapter>>,
  styles: readonly string[],
  operations: readonly string[],
): string {
  const schema = JSON.parse(baseText);
  delete schema.$comment;
  fillEnums(schema, { protocol: Object.keys(registry), style: [...styles], op: [...operations] });
  const vendor = schema.definitions.vendor;
  const authKinds = new Map<string, { schema: object; protocols: string[] }>();
  for (const [name, adapter] of Object.entries(registry)) {
    Object.assign(vendor.properties, adapter.configSchema?.vendorProperties);
    Object.assign(schema.definitions.requestFacts.properties, adapter.configSchema?.requestFactProperties);
    for (const [kind, kindSchema] of Object.entries(adapter.configSchema?.authKinds ?? {})) {
      const known = authKinds.get(kind) ?? { schema: kindSchema, protocols: [] };
      known.protocols.push(name);
      authKinds.set(kind, known);
    }
  }
  const rules: Json[] = [];
  for (const [kind, { schema: kindSchema, protocols }] of authKinds) {
    vendor.properties.auth.oneOf.push({ type: 'object', additionalProperties: false, required: [kind], properties: { [kind]: kindSchema } });
    const allowed = protocols.length === 1 ? { const: protocols[0] } : { enum: protocols };
    rules.push({
      if: { required: ['auth'], properties: { auth: { type: 'object', required: [kind] } } },
      then: { properties: { protocol: { ...allowed, description: `${kind} auth is for the vendors of the protocols that sign with it.` } } },
    });
  }
  if (rules.length > 0) vendor.allOf = rules;
  return `${JSON.stringify(schema, null, 2)}\n`;
}
