import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { createLogger } from '../../src/logger.ts';
import { createCompileWorker } from '../../src/reload/compile-in-worker.ts';
import { createReloader } from '../../src/reload/create-reloader.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

/** A reloader of `file` compiling in a real worker thread, applying into `applied`, logging into `lines`. */
function createTestReloader(file: string, worker = createCompileWorker()) {
  const lines: string[] = [];
  const applied: CompiledConfig[] = [];
  const outcomes: [string, number][] = [];
  let generation = 1;
  const reloader = createReloader({
    file,
    logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line).msg) }),
    apply(config) {
      applied.push(config);
      return ++generation;
    },
    getGeneration: () => generation,
    onReload: (outcome, at) => void outcomes.push([outcome, at]),
    compile: worker.compile,
  });
  return { reloader, lines, applied, outcomes };
}

describe('the reloader of a config file', () => {
  let config: WrittenConfig;
  let original: string;
  const worker = createCompileWorker();
  beforeAll(async () => {
    config = await writeGatewayConfig((raw) => {
      raw.models['reload-added'] = { vendor: 'openai', upstream: 'gpt-4o-mini' };
    });
    original = await readFile(config.file, 'utf8');
  });
  afterAll(async () => {
    await worker.close();
    await config?.remove();
  });

  it('compiles a good file in the worker thread and applies it: the next generation, told to onReload', async () => {
    await writeFile(config.file, original);
    const { reloader, applied, outcomes, lines } = createTestReloader(config.file, worker);
    const result = await reloader.reload('test');
    expect(result).toEqual({ outcome: 'ok', generation: 2, problems: [] });
    expect(applied).toHaveLength(1);
    expect(Object.keys(applied[0].models)).toContain('reload-added');
    expect(outcomes).toEqual([['ok', 2]]);
    expect(lines).toContain(`reloaded ${config.file}: generation 2 serves new requests`);
  }, 30_000);

  it('keeps the old config on a bad file: nothing applied, each problem logged as file:line:col', async () => {
    const broken = original.replace(/^models:\n/m, 'models:\n  broken-model: { vendor: no-such-vendor }\n');
    await writeFile(config.file, broken);
    const { reloader, applied, outcomes, lines } = createTestReloader(config.file, worker);
    const result = await reloader.reload('test');
    expect(result.outcome).toBe('failed');
    expect(result.generation).toBe(1);
    expect(applied).toHaveLength(0);
    expect(outcomes).toEqual([['failed', 1]]);
    const line = broken.split('\n').findIndex((text) => text.includes('no-such-vendor')) + 1;
    expect(result.problems).toEqual([expect.stringMatching(new RegExp(`^${config.file.replace(/[.\\/]/g, '\\$&')}:${line}:\\d+: .*no-such-vendor`))]);
    expect(lines).toEqual(expect.arrayContaining([result.problems[0], `reload of ${config.file} failed: generation 1 keeps serving`]));
  }, 30_000);

  it('reports YAML that does not parse and a missing file as problems, never a throw', async () => {
    await writeFile(config.file, 'models: [\n');
    const { reloader, applied } = createTestReloader(config.file, worker);
    const unparsable = await reloader.reload('test');
    expect(unparsable.outcome).toBe('failed');
    expect(unparsable.problems[0]).toMatch(new RegExp(`^${config.file.replace(/[.\\/]/g, '\\$&')}:\\d+:\\d+: `));
    const missing = createTestReloader(`${config.file}.absent`, worker);
    const gone = await missing.reloader.reload('test');
    expect(gone.outcome).toBe('failed');
    expect(gone.problems.join('\n')).toContain(`${config.file}.absent`);
    expect(applied).toHaveLength(0);
  }, 30_000);

  it('runs reloads one at a time: those asked for during one share the next run', async () => {
    await writeFile(config.file, original);
    const { reloader, applied } = createTestReloader(config.file, worker);
    const results = await Promise.all([reloader.reload('a'), reloader.reload('b'), reloader.reload('c'), reloader.reload('d')]);
    expect(results.map((result) => result.generation)).toEqual([2, 3, 3, 3]);
    expect(applied).toHaveLength(2);
  }, 30_000);

  it('fails the reload when applying the compiled config throws, and keeps the old generation', async () => {
    await writeFile(config.file, original);
    const lines: string[] = [];
    const reloader = createReloader({
      file: config.file,
      logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line).msg) }),
      apply: () => {
        throw new Error('cannot read ca_file');
      },
      getGeneration: () => 7,
      compile: worker.compile,
    });
    expect(await reloader.reload('test')).toEqual({ outcome: 'failed', generation: 7, problems: [`${config.file}: cannot read ca_file`] });
    expect(lines).toContain(`${config.file}: cannot read ca_file`);
  }, 30_000);
});
