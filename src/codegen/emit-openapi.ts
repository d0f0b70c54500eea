import type { CompiledConfig, RouteEntry } from '../config/types.ts';
import { getStyleFacts, STYLES } from '../protocols/styles.ts';
import type { EndpointSchema } from './emit-validators.ts';
import { stableJson } from './banner.ts';

/** The security requirement of a route: any one of its style's key schemes. */
function getSecurity(style: RouteEntry['style']): object[] {
  return Object.keys(getStyleFacts(style).securitySchemes).map((name) => ({ [name]: [] }));
}

function toSchemaName(id: string): string {
  return id.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}

function describeRoute(route: RouteEntry) {
  const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.model.from === 'query') parameters.push({ name: route.model.name, in: 'query', required: true, schema: { type: 'string' } });
  const operation: Record<string, unknown> = {
    operationId: route.native ? `native-${route.native.name}` : `${route.style}-${route.op}`,
    summary: route.native ? `${route.native.vendor} vendor-native entry ${route.native.name}` : `${route.op} (${route.style} style)`,
    security: getSecurity(route.style),
    responses: { '200': { description: 'The vendor answer, in the caller style.' }, default: { description: 'An error in the caller style.' } },
  };
  if (parameters.length) operation.parameters = parameters;
  if (route.schema) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${toSchemaName(route.schema)}` } } },
    };
    if (route.multipart) (operation.requestBody as any).content['multipart/form-data'] = { schema: { type: 'object' } };
  } else if (route.body === 'multipart') {
    operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } };
  }
  return operation;
}

/** The OpenAPI 3.1 document of the gateway's public surface, generated from the routes and schemas. */
export function emitOpenApi(config: CompiledConfig, schemas: EndpointSchema[]): string {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of config.routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = describeRoute(route);
  }
  const components = Object.fromEntries(
    schemas.map(({ id, schema }) => {
      const { $schema, $id, ...rest } = schema as Record<string, unknown>;
      void $schema;
      void $id;
      return [toSchemaName(id), rest];
    }),
  );
  const document = {
    openapi: '3.1.0',
    info: { title: 'Model gateway', version: '1', description: 'Generated from gateway.yaml. Do not edit.' },
    paths,
    components: {
      schemas: components,
      securitySchemes: Object.assign({}, ...Object.values(STYLES).map((facts) => facts.securitySchemes)),
    },
  };
  return stableJson(document) + '\n';
}
