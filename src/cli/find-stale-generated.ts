import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readSourcesHash } from '../config/sources-hash.ts';

/**
 * Why the generated tables must not be served: a line naming `npm run build` when `builtHash` (the hash
 * generated/config.ts was built from) differs from the hash of `root`'s gateway.yaml and schemas/, or
 * undefined when they match or when those sources are not there (a bundle copied without them).
 */
export async function findStaleGenerated(root: string, builtHash: string | undefined): Promise<string | undefined> {
  const configFile = join(root, 'gateway.yaml');
  const schemaDir = join(root, 'schemas');
  if (!existsSync(configFile) || !existsSync(schemaDir)) return undefined;
  if (builtHash === (await readSourcesHash(configFile, schemaDir))) return undefined;
  return (
    `generated/ does not match ${configFile} and ${schemaDir}${builtHash === undefined ? '' : ' (they changed since the last build)'}: ` +
    'run `npm run build` (it also reports a config that no longer builds), or start with --config FILE'
  );
}
