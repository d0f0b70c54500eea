import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourcesHash } from '../../generated/config.ts';
import { findStaleGenerated } from '../../src/cli/find-stale-generated.ts';
import { readSourcesHash } from '../../src/config/sources-hash.ts';

describe('findStaleGenerated', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'stale-generated-'));
    await cp('gateway.yaml', join(root, 'gateway.yaml'));
    await cp('schemas', join(root, 'schemas'), { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('accepts the committed generated/ for the committed gateway.yaml and schemas/', async () => {
    expect(await findStaleGenerated(process.cwd(), sourcesHash)).toBeUndefined();
    expect(await findStaleGenerated(root, sourcesHash)).toBeUndefined();
  });

  it('names `npm run build` when gateway.yaml changed since the build', async () => {
    await writeFile(join(root, 'gateway.yaml'), `${await readFile('gateway.yaml', 'utf8')}\n# one more line\n`);
    const stale = await findStaleGenerated(root, sourcesHash);
    expect(stale).toContain('run `npm run build`');
    expect(stale).toContain(join(root, 'gateway.yaml'));
  });

  it('names `npm run build` when a schema changed, or when the tables carry no hash at all', async () => {
    const file = join(root, 'schemas', 'endpoints', 'messages.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('{', '{ "description": "changed",'));
    expect(await findStaleGenerated(root, sourcesHash)).toContain('npm run build');
    expect(await findStaleGenerated(process.cwd(), undefined)).toContain('npm run build');
  });

  it('skips the check when the sources are not beside the tables (a bundle copied alone)', async () => {
    await rm(join(root, 'gateway.yaml'));
    expect(await findStaleGenerated(root, 'not-the-hash')).toBeUndefined();
  });

  it('hashes the same sources the same whatever their line endings', async () => {
    const text = await readFile(join(root, 'gateway.yaml'), 'utf8');
    await writeFile(join(root, 'gateway.yaml'), text.replace(/\n/g, '\r\n'));
    expect(await readSourcesHash(join(root, 'gateway.yaml'), join(root, 'schemas'))).toBe(sourcesHash);
  });
});
