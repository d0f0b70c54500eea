import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const CACHE_DIR = join('node_modules', '.cache', 'model-gateway');

function getGeneratorVersion(): string {
  return createRequire(import.meta.url)('openapi-typescript/package.json').version as string;
}

/**
 * TypeScript types of the gateway's OpenAPI document, by openapi-typescript. The document depends on the
 * routes and schemas only, not on the models, so the output is cached by the document's hash: the
 * generator (which loads the TypeScript compiler, over a second) runs only when the surface changed.
 */
export async function emitOpenApiTypes(openapi: string): Promise<string> {
  const hash = createHash('sha256').update(getGeneratorVersion()).update(openapi).digest('hex').slice(0, 32);
  const cached = join(CACHE_DIR, `openapi-${hash}.d.ts`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    // not cached yet
  }
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const types = astToString(await openapiTS(JSON.parse(openapi)));
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(cached, types);
  return types;
}
