/**
 * `npm run bundle`: the production build of the gateway command, `dist/gateway.mjs`, run with plain
 * `node` (no TypeScript loader at start or per request). Packages stay external (resolved from
 * node_modules), so dist/ lives beside them. Also used by the benchmark for both proxies it compares.
 *
 * Usage: `tsx scripts/bundle.ts [ENTRY OUTFILE]` (default: src/cli.ts -> dist/gateway.mjs).
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { build, type Metafile } from 'esbuild';

/** The worker thread a config reload compiles in (src/reload/compile-in-worker.ts loads it beside the bundle). */
const COMPILE_WORKER = 'src/reload/compile-worker.ts';

/**
 * Bundles one TypeScript entry point into an ES module for the Node versions the gateway supports, at `outfile`,
 * with what it imports dynamically in chunks beside it (`<name>-chunks/`), so that code a command does not run is
 * never loaded: `gateway start` from the built tables loads neither the config compiler nor yaml nor ajv's compiler.
 * The gateway command (`src/cli.ts`) gets its reload worker too: `compile-worker.mjs` in the same folder.
 * Returns esbuild's metafile of the entry (what each output imports, statically or dynamically).
 */
export async function bundleEntry(entry: string, outfile: string): Promise<Metafile> {
  const metafile = await bundleOne(entry, outfile);
  if (entry === 'src/cli.ts') await bundleOne(COMPILE_WORKER, join(dirname(outfile), 'compile-worker.mjs'));
  return metafile;
}

async function bundleOne(entry: string, outfile: string): Promise<Metafile> {
  const name = basename(outfile, extname(outfile));
  // Chunks of this entry only, in a folder of their own: emptied first, so no stale chunk is left beside new ones.
  await rm(join(dirname(outfile), `${name}-chunks`), { recursive: true, force: true });
  const result = await build({
    entryPoints: { [name]: entry },
    outdir: dirname(outfile),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: `${name}-chunks/[name]-[hash]`,
    metafile: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    // For the benchmark's profile breakdown (bench/profile-stages.ts); Node reads it only with --enable-source-maps.
    sourcemap: 'linked',
    banner: { js: '// Built by scripts/bundle.ts from the TypeScript sources; do not edit.' },
  });
  return result.metafile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [entry = 'src/cli.ts', outfile = 'dist/gateway.mjs'] = process.argv.slice(2);
  await bundleEntry(entry, outfile);
  console.log(`bundled ${entry} -> ${outfile}`);
}
