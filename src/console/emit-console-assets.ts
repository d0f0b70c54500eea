import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { getBanner } from '../codegen/banner.ts';

const CLIENT_DIR = fileURLToPath(new URL('./client/', import.meta.url));

/**
 * generated/console.ts: the console's page, script (src/console/client bundled by esbuild, minified, no
 * source map, so the bytes depend only on the sources) and style sheet, as strings the admin listener serves.
 */
export async function emitConsoleAssets(): Promise<string> {
  const bundled = await build({
    entryPoints: [`${CLIENT_DIR}main.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    absWorkingDir: CLIENT_DIR,
    logLevel: 'silent',
  });
  const assets = {
    'index.html': { type: 'text/html; charset=utf-8', body: await readFile(`${CLIENT_DIR}index.html`, 'utf8') },
    'app.js': { type: 'text/javascript; charset=utf-8', body: bundled.outputFiles[0].text },
    'app.css': { type: 'text/css; charset=utf-8', body: await readFile(`${CLIENT_DIR}app.css`, 'utf8') },
  };
  return (
    getBanner('src/console/client') +
    `/** The console's files, served by the admin listener under /console/. */\n` +
    `export const CONSOLE_ASSETS: Record<string, { type: string; body: string }> = ${JSON.stringify(assets, null, 2)};\n`
  );
}
