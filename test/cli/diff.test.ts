import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDiff } from '../helpers/run-diff.ts';

const KEY_VALUE = 'sk-diff-test-value-never-printed';
const DIGEST = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

/** Runs `gateway diff` in a real Node process, with a key's env var set to a value that must never show. */
/** The diff with the key variables both configs name. */
const runDiffWithKeys = (args: string[]) => runDiff(args, { GATEWAY_API_KEY: KEY_VALUE, ROTATED_GATEWAY_KEY: KEY_VALUE });

let dir: string;
let oldFile: string;
let newFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-diff-'));
  const yaml = await readFile('gateway.yaml', 'utf8');
  oldFile = join(dir, 'old.yaml');
  newFile = join(dir, 'new.yaml');
  await writeFile(oldFile, yaml);
  const changed = yaml
    .replace('port: 8787', 'port: 8788')
    .replace('key: env:GATEWAY_API_KEY', 'key: env:ROTATED_GATEWAY_KEY')
    .replace('keys:\n', `keys:\n  - { name: team-b, sha256: ${DIGEST}, models: [gpt-4o], limits: { rpm: 5 } }\n`)
    .replace('  gpt-4o: { vendor: openai,', '  gpt-4o: { vendor: anthropic,')
    .replace(/^ {2}whisper-1: .*\n/m, '');
  await writeFile(newFile, changed);
});

describe('gateway diff', () => {
  it('exits 0 and prints "no changes" for equal configs', async () => {
    const { code, stdout } = await runDiffWithKeys([oldFile, oldFile]);
    expect(stdout.trim()).toBe('no changes');
    expect(code).toBe(0);
  }, 30_000);

  it('exits 1 and prints one line per change, secrets only as changed', async () => {
    const { code, stdout } = await runDiffWithKeys([oldFile, newFile]);
    expect(code).toBe(1);
    expect(stdout).toContain('~ server.port: 8787 -> 8788');
    expect(stdout).toContain('~ models.gpt-4o.vendor: openai -> anthropic');
    expect(stdout).toContain('- models.whisper-1: {"vendor":"openai"}');
    expect(stdout).toContain('~ keys.default.key: changed (secret)');
    expect(stdout).toContain('+ keys.team-b: {"limits":{"rpm":5},"models":["gpt-4o"],"name":"team-b","sha256":"(secret)"}');
    expect(stdout).toContain('5 changes: 1 added, 1 removed, 3 changed');
    for (const secret of [KEY_VALUE, DIGEST, 'GATEWAY_API_KEY']) expect(stdout).not.toContain(secret);
  }, 30_000);

  it('prints the changes as sorted JSON with --json, secrets absent', async () => {
    const { code, stdout } = await runDiffWithKeys(['--json', oldFile, newFile]);
    expect(code).toBe(1);
    const { changes } = JSON.parse(stdout);
    expect(changes.map((c: any) => `${c.kind} ${c.path}`)).toEqual([
      'changed server.port',
      'changed models.gpt-4o.vendor',
      'removed models.whisper-1',
      'changed keys.default.key',
      'added keys.team-b',
    ]);
    expect(changes[3]).toEqual({ path: 'keys.default.key', kind: 'changed', secret: true });
    for (const secret of [KEY_VALUE, DIGEST, 'GATEWAY_API_KEY']) expect(stdout).not.toContain(secret);
  }, 30_000);

  it('exits 2 with file:line:col problems when a file fails the check', async () => {
    const broken = join(dir, 'broken.yaml');
    await writeFile(broken, 'server:\n  port: [1\n');
    const badVendor = join(dir, 'bad-vendor.yaml');
    await writeFile(badVendor, (await readFile(oldFile, 'utf8')).replace('  gpt-4o: { vendor: openai,', '  gpt-4o: { vendor: nobody,'));
    const { code, stdout, stderr } = await runDiffWithKeys([broken, badVendor]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^${broken.replace(/[.\\/]/g, '\\$&')}:\\d+:\\d+: `, 'm'));
    expect(stderr).toMatch(/bad-vendor\.yaml:\d+:\d+: models\.gpt-4o\.vendor: unknown vendor "nobody"/);
  }, 30_000);

  it('exits 2 for an unreadable file or a wrong number of arguments', async () => {
    const missing = await runDiffWithKeys([oldFile, join(dir, 'missing.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing.yaml:1:1: cannot read the file (ENOENT)');
    const lonely = await runDiffWithKeys([oldFile]);
    expect(lonely.code).toBe(2);
    expect(lonely.stderr).toContain('usage: gateway diff OLD.yaml NEW.yaml [--json]');
  }, 30_000);
});
