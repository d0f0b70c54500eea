import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../../scripts/bundle.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { LAUNCHERS, startCliGateway } from '../helpers/start-cli-gateway.ts';

/** Starts processes: never beside another heavy test file. */
runAlone();

const RECORDER = resolve('test/fixtures/module-recorder/register.mjs');

/** A simulated vendor: a protocol folder's `simulator/` (its key file aside) or the shared simulator plumbing. */
const SIMULATOR = /\/src\/protocols\/[a-z]+\/simulator\/(?!key\.ts)|\/src\/simulators\/(?!keys\.ts|types\.ts)/;

/** What serving must not load: the config compiler, its YAML readers, ajv's schema compiler (the generated validators require ajv's runtime helpers only). */
const COMPILER = /\/src\/config\/(compile|check|load|index)\.ts|\/node_modules\/(yaml|js-yaml)\/|\/node_modules\/ajv\/(?!dist\/runtime\/)/;

/** Starts `launcher` on the built tables (no --config), stops it, and returns the modules it resolved. */
async function listLoadedModules(launcher: string[], env: Record<string, string> = {}): Promise<string[]> {
  const [node, ...rest] = launcher;
  const gateway = await startCliGateway(undefined, env, [], [node, '--import', RECORDER, ...rest]);
  await gateway.stop();
  const line = gateway.output().split('\n').find((l) => l.startsWith('LOADED-MODULES '));
  expect(line).toBeDefined();
  return JSON.parse(line!.slice('LOADED-MODULES '.length)) as string[];
}

describe('gateway start on the built tables', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'start-modules-'));
    await bundleEntry('src/cli.ts', join(dir, 'dist', 'gateway.mjs'));
    await symlink(resolve('node_modules'), join(dir, 'node_modules'));
    await cp('schemas', join(dir, 'schemas'), { recursive: true });
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('loads neither the config compiler nor yaml nor ajv when run as `npm start` runs it', async () => {
    const loaded = await listLoadedModules(LAUNCHERS.node);
    expect(loaded.some((url) => url.endsWith('/src/gateway/create-gateway.ts'))).toBe(true);
    expect(loaded.filter((url) => COMPILER.test(url))).toEqual([]);
    // Without vendor keys it simulates: the protocols' simulators are loaded, on demand.
    expect(loaded.filter((url) => SIMULATOR.test(url)).length).toBeGreaterThan(0);
  }, 60_000);

  it('loads no simulator when it serves real vendors (each protocol loads its simulator on demand)', async () => {
    const loaded = await listLoadedModules(LAUNCHERS.node, { OPENAI_API_KEY: 'sk-not-a-real-key-0000' });
    expect(loaded.some((url) => url.endsWith('/src/gateway/create-gateway.ts'))).toBe(true);
    expect(loaded.filter((url) => SIMULATOR.test(url))).toEqual([]);
  }, 60_000);

  it('loads neither from the production bundle', async () => {
    const loaded = await listLoadedModules([process.execPath, join(dir, 'dist', 'gateway.mjs'), 'start']);
    expect(loaded.some((url) => url.includes('/gateway-chunks/'))).toBe(true);
    expect(loaded.filter((url) => COMPILER.test(url))).toEqual([]);
  }, 60_000);

  it('does load the compiler for `check` (the recorder sees it when it is there)', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(process.execPath, ['--import', RECORDER, join(dir, 'dist', 'gateway.mjs'), 'check', 'gateway.yaml'], { encoding: 'utf8' });
    expect(result.stdout).toContain('gateway.yaml: ok');
    expect(result.stderr).toMatch(/LOADED-MODULES .*node_modules\/ajv\//);
    expect(result.stderr).toMatch(/LOADED-MODULES .*node_modules\/js-yaml\//);
  }, 60_000);

  it('requires yaml for `check` when a problem is placed (the recorder sees required packages too)', async () => {
    const { spawnSync } = await import('node:child_process');
    const { writeFile } = await import('node:fs/promises');
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'vendors:\n  openai: { protocol: openai, base_url: not a url }\n');
    const result = spawnSync(process.execPath, ['--import', RECORDER, join(dir, 'dist', 'gateway.mjs'), 'check', file], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/LOADED-MODULES .*node_modules\/yaml\//);
  }, 60_000);
});
