/**
 * `npm run bundle`: the production build of the gateway command, `dist/gateway.mjs`, run with plain
 * `node` (no TypeScript loader at start or per request). Packages stay external (resolved from
 * node_modules), so dist/ lives beside them. Also used by the benchmark for both proxies it compares.
 *
 * Usage: `tsx scripts/bundle.ts [ENTRY OUTFILE]` (default: src/cli.ts -> dist/gateway.mjs).
 */
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/** The worker thread a config reload compiles in (src/reload/compile-in-worker.ts loads it beside the bundle). */
const COMPILE_WORKER = 'src/reload/compile-worker.ts';

/**
 * Bundles one TypeScript entry point into an ES module for the Node versions the gateway supports. The gateway
 * command (`src/cli.ts`) gets its reload worker too: `compile-worker.mjs` in the same folder.
 */
export async function bundleEntry(entry: string, outfile: string): Promise<void> {
  await bundleOne(entry, outfile);
  if (entry === 'src/cli.ts') await bundleOne(COMPILE_WORKER, join(dirname(outfile), 'compile-worker.mjs'));
}

async function bundleOne(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    banner: { js: '// Built by scripts/bundle.ts from the TypeScript sources; do not edit.' },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [entry = 'src/cli.ts', outfile = 'dist/gateway.mjs'] = process.argv.slice(2);
  await bundleEntry(entry, outfile);
  console.log(`bundled ${entry} -> ${outfile}`);
}
