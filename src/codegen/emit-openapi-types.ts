import { runOpenApiTypescript } from './run-openapi-typescript.ts';

/**
 * TypeScript types of the gateway's OpenAPI document (generated/openapi.d.ts). The document depends on the
 * routes and schemas only, not on the models, so the cached output is reused while the surface is unchanged.
 */
export function emitOpenApiTypes(openapi: string): Promise<string> {
  return runOpenApiTypescript(openapi);
}
