import type { CompiledConfig } from '../config/types.ts';
import { getBanner, stableJson } from './banner.ts';

/** The compiled route, model, vendor and key tables as a typed TypeScript module (no secrets: env names only). */
export function emitConfigModule(config: CompiledConfig, source: string): string {
  return (
    getBanner(source) +
    `import type { CompiledConfig } from '../src/config/types.ts';\n\n` +
    `/** The compiled gateway configuration. */\n` +
    `export const config: CompiledConfig = ${stableJson(config)};\n`
  );
}
