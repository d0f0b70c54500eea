import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../../scripts/bundle.ts';

const run = promisify(execFile);
// Inside the checkout: the bundle resolves its packages from node_modules beside it.
const OUTFILE = `dist/test-bundle-${process.pid}.mjs`;

afterAll(() => rm(OUTFILE, { force: true }));

describe('the production bundle (npm run bundle)', () => {
  it('runs the gateway command with plain node: checks gateway.yaml against the endpoint schemas', async () => {
    await bundleEntry('src/cli.ts', OUTFILE);
    const { stdout } = await run(process.execPath, [OUTFILE, 'check', 'gateway.yaml']);
    expect(stdout.trim()).toBe('gateway.yaml: ok');
  });

  it('reports a config problem with its position and exit code 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bundle-check-'));
    const file = join(dir, 'broken.yaml');
    const text = (await readFile('gateway.yaml', 'utf8')).replace(/^models:\n/m, 'models:\n  broken-model: { vendor: no-such-vendor }\n');
    await writeFile(file, text);
    const failure = await run(process.execPath, [OUTFILE, 'check', file]).catch((error) => error);
    await rm(dir, { recursive: true, force: true });
    expect(failure.code).toBe(1);
    expect(failure.stdout + failure.stderr).toMatch(/broken\.yaml:\d+:\d+: .*no-such-vendor/);
  });
});
