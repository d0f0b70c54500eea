import type { CompiledConfig } from '../config/types.ts';
import { getBanner, stableJson } from './banner.ts';

/**
 * The compiled route, model, vendor and key tables as a typed TypeScript module (no secrets: env names
 * only), with the hash of the sources they were built from (`gateway start` refuses stale tables).
 */
export function emitConfigModule(config: CompiledConfig, source: string, sourcesHash: string): string {
  return (
    getBanner(source, '//', sourcesHash) +
    `import type { CompiledConfig } from '../src/config/types.ts';\n\n` +
    `/** sha256 of the config file and schemas/ these tables were built from (src/config/sources-hash.ts). */\n` +
    `export const sourcesHash = '${sourcesHash}';\n\n` +
    `/** The compiled gateway configuration. */\n` +
    `export const config: CompiledConfig = ${stableJson(config)};\n`
  );
}
