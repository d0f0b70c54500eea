/**
 * The handlers type the bodies they read with the generated OpenAPI types (src/runtime/request-body.ts):
 * each type they name is the schema the route of their operation checks, and it declares the fields they
 * read, so the types describe what validation let through.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { config } from '../../generated/config.ts';

const openapi = JSON.parse(readFileSync('generated/openapi.json', 'utf8'));
const { schemas } = openapi.components;

/** The body types the handlers name (`RequestBody<...>`), by operation, with the fields they read. */
const READS = [
  { op: 'responses', schema: 'Responses', fields: ['store', 'previous_response_id'], where: 'src/responses-state' },
  { op: 'videos-create', schema: 'ModelBody', fields: ['model'], where: 'src/runtime/videos.ts' },
];

/** The request body schema the OpenAPI document gives the route serving `op`. */
function getRouteSchema(op: string): string | undefined {
  const route = config.routes.find((entry) => entry.op === op);
  if (!route) return undefined;
  const operation = openapi.paths[route.path]?.[route.method.toLowerCase()];
  return operation?.requestBody?.content['application/json'].schema.$ref;
}

describe('request body types of the handlers', () => {
  it.each(READS)('$op is checked by $schema, which declares what $where reads', ({ op, schema, fields }) => {
    expect(getRouteSchema(op)).toBe(`#/components/schemas/${schema}`);
    expect(Object.keys(schemas[schema].properties)).toEqual(expect.arrayContaining(fields));
  });

  it('both image shapes declare the response_format the image request reads after checking its shape', () => {
    expect(getRouteSchema('images-generations')).toBe('#/components/schemas/ImagesGenerations');
    for (const shape of ['ImagesShapeA', 'ImagesShapeB']) expect(schemas[shape].properties.response_format.enum).toEqual(['url', 'b64_json']);
  });

  it('finds no schema for an operation no route serves (the lookups above can fail)', () => {
    expect(getRouteSchema('no-such-op')).toBeUndefined();
    expect(getRouteSchema('responses-get')).toBeUndefined();
  });
});
