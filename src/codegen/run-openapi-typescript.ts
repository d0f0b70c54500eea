import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { OpenAPITSOptions } from 'openapi-typescript';

const CACHE_DIR = join('node_modules', '.cache', 'model-gateway');

function getGeneratorVersion(): string {
  return createRequire(import.meta.url)('openapi-typescript/package.json').version as string;
}

/** The options the build passes: plain data, so that they are part of the cache key. */
export type TypesOptions = Pick<OpenAPITSOptions, 'alphabetize' | 'rootTypes'>;

/**
 * TypeScript types of an OpenAPI document's text, by openapi-typescript. The output is cached by the
 * hash of the generator's version, the document and the options: the generator (which loads the
 * TypeScript compiler, over a second) runs only when its input changed.
 */
export async function runOpenApiTypescript(document: string, options: TypesOptions = {}): Promise<string> {
  const hash = createHash('sha256').update(getGeneratorVersion()).update(JSON.stringify(options)).update(document).digest('hex').slice(0, 32);
  const cached = join(CACHE_DIR, `openapi-${hash}.d.ts`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    // not cached yet
  }
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const types = astToString(await openapiTS(JSON.parse(document), options));
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(cached, types);
  return types;
}
