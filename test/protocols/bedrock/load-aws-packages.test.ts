import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** The AWS packages a fresh process has loaded after running `code` (ES module text, the repository as cwd). */
async function listLoadedAwsPackages(code: string): Promise<string[]> {
  const script = `${code}
const { createRequire } = await import('node:module');
const cache = createRequire(import.meta.url)('node:module')._cache;
const names = new Set(Object.keys(cache).map((file) => /node_modules\\/(@smithy\\/[^/]+|@aws-crypto\\/[^/]+)/.exec(file)?.[1]).filter(Boolean));
console.log(JSON.stringify([...names].sort()));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd() });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('the AWS packages of Bedrock', () => {
  it('are not loaded with the protocol registry, so a gateway without a Bedrock vendor does not hold them', async () => {
    expect(await listLoadedAwsPackages(`const { getProtocolAdapter } = await import('./src/protocols/index.ts'); getProtocolAdapter('bedrock');`)).toEqual([]);
  });

  it('are loaded when a Bedrock stream is first parsed', async () => {
    const loaded = await listLoadedAwsPackages(
      `const { getProtocolAdapter } = await import('./src/protocols/index.ts'); getProtocolAdapter('bedrock').chat.createStreamParser(() => {});`,
    );
    expect(loaded).toEqual(expect.arrayContaining(['@smithy/eventstream-codec', '@smithy/signature-v4', '@aws-crypto/sha256-js']));
  });
});
