import { createRequire } from 'node:module';
import type { OpenAPITSOptions } from 'openapi-typescript';
import { readCached } from './build-cache.ts';

function getGeneratorVersion(): string {
  return createRequire(import.meta.url)('openapi-typescript/package.json').version as string;
}

/** The options the build passes: plain data, so that they are part of the cache key. */
export type TypesOptions = Pick<OpenAPITSOptions, 'alphabetize' | 'rootTypes'>;

/**
 * TypeScript types of an OpenAPI document's text, by openapi-typescript. The output is cached by the
 * generator's version, the document and the options: the generator (which loads the TypeScript compiler,
 * over a second) runs only when its input changed.
 */
export async function runOpenApiTypescript(document: string, options: TypesOptions = {}): Promise<string> {
  return readCached('openapi', '.d.ts', [getGeneratorVersion(), JSON.stringify(options), document], async () => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    return astToString(await openapiTS(JSON.parse(document), options));
  });
}
