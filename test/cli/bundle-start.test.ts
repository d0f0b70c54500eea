import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../../scripts/bundle.ts';
import { startCliGateway } from '../helpers/start-cli-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** Runs the bundle with `args` until it exits; resolves with its exit code and output. */
async function runToExit(bundle: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OPENAI_API_KEY: '' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  return { code, output };
}

/**
 * The production bundle in a folder of its own (its packages linked in): beside gateway.yaml and schemas/
 * it refuses tables that do not match them; copied without them it serves, and drains on SIGTERM.
 */
describe('gateway start from the bundle', () => {
  let dir: string;
  let bundle: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bundle-start-'));
    bundle = join(dir, 'dist', 'gateway.mjs');
    await mkdir(join(dir, 'dist'));
    await bundleEntry('src/cli.ts', bundle);
    await symlink(resolve('node_modules'), join(dir, 'node_modules'));
    await cp('schemas', join(dir, 'schemas'), { recursive: true });
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses with exit 1 and a line naming `npm run build` when gateway.yaml changed since the build', async () => {
    await writeFile(join(dir, 'gateway.yaml'), (await readFile('gateway.yaml', 'utf8')).replace('port: 8787', 'port: 8788'));
    const { code, output } = await runToExit(bundle, ['start', '--port', '0', '--host', '127.0.0.1']);
    expect(code).toBe(1);
    expect(output).toContain('generated/ does not match');
    expect(output).toContain('run `npm run build`');
    expect(output).not.toContain('listening on');
  }, 30_000);

  it('serves the tables it was built with when no sources are beside it, and drains on SIGTERM', async () => {
    await rm(join(dir, 'gateway.yaml'));
    const gateway = await startCliGateway(undefined, {}, [], [process.execPath, bundle, 'start']);
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-gateway-simulator', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'from the bundle' }] }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).choices[0].message.content).toContain('from the bundle');
    expect(await gateway.stop('SIGTERM')).toBe(0);
    expect(gateway.output()).toContain('drained; exiting');
  }, 30_000);

  it('reloads --config FILE on SIGHUP: its compile worker is bundled beside it (dist/compile-worker.mjs)', async () => {
    const file = join(dir, 'reload.yaml');
    await writeFile(file, await readFile('gateway.yaml', 'utf8'));
    const gateway = await startCliGateway(file, {}, [], [process.execPath, bundle, 'start']);
    try {
      await writeFile(file, (await readFile('gateway.yaml', 'utf8')).replace(/^models:\n/m, 'models:\n  bundle-reloaded: { vendor: openai, upstream: gpt-4o-mini }\n'));
      gateway.child.kill('SIGHUP');
      await waitFor(() => gateway.output().includes('generation 2 serves new requests'), 20_000);
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-gateway-simulator', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'bundle-reloaded', messages: [{ role: 'user', content: 'after the reload' }] }),
      });
      expect(response.status).toBe(200);
    } finally {
      expect(await gateway.stop('SIGTERM')).toBe(0);
    }
  }, 40_000);

  it('serves as usual beside sources that match its tables', async () => {
    await cp('gateway.yaml', join(dir, 'gateway.yaml'));
    const gateway = await startCliGateway(undefined, {}, [], [process.execPath, bundle, 'start']);
    expect(gateway.output()).toContain('listening on');
    expect(await gateway.stop('SIGINT')).toBe(0);
  }, 30_000);
});
