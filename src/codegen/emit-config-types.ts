import { getBanner } from './banner.ts';
import { runOpenApiTypescript } from './run-openapi-typescript.ts';

/** The name under which the schema's root (the whole gateway.yaml) is typed: `SchemaGatewayFile`. */
const ROOT_NAME = 'gatewayFile';

/**
 * generated/config-types.ts: the TypeScript types of gateway.yaml as the composed config schema describes
 * it (`SchemaGatewayFile`, `SchemaVendor`, `SchemaRoute`, ... one per schema definition, keys sorted), so that
 * the schema is the one source of the config's shape, its enums included (operations, protocols, styles).
 * The schema is wrapped as an OpenAPI document's components for openapi-typescript; `$ref`s follow.
 */
export async function emitConfigTypes(schemaText: string): Promise<string> {
  const { definitions, $schema, $id, title, ...root } = JSON.parse(schemaText);
  const schemas = JSON.parse(JSON.stringify({ ...definitions, [ROOT_NAME]: root }).replaceAll('"#/definitions/', '"#/components/schemas/'));
  const document = { openapi: '3.1.0', info: { title: String(title ?? $id), version: '0' }, paths: {}, components: { schemas } };
  const types = await runOpenApiTypescript(JSON.stringify(document), { alphabetize: true, rootTypes: true });
  return getBanner('schemas/gateway.schema.json') + types;
}
