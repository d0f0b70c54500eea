import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

const yaml = readFileSync(new URL('../../gateway.yaml', import.meta.url), 'utf8');
const LINE = '    - move: { from: seed, to: parameters.seed }';
const lineNumber = yaml.split('\n').indexOf(LINE) + 1;

async function problemsWith(replacement: string) {
  expect(lineNumber).toBeGreaterThan(0);
  const { config, problems } = await compileConfigText(yaml.replace(LINE, replacement));
  expect(config).toBeUndefined();
  return problems.map(formatProblem);
}

describe('gateway check on transforms', () => {
  it('accepts the default gateway.yaml transforms', async () => {
    expect((await compileConfigText(yaml)).problems).toEqual([]);
  });

  it('rejects an unknown op with the line and column of the op', async () => {
    const problems = await problemsWith('    - rename: { from: seed, to: parameters.seed }');
    expect(problems.some((p) => p.startsWith(`gateway.yaml:${lineNumber}:`) && p.includes('rename'))).toBe(true);
  });

  it('rejects a bad path with the line and column of the path', async () => {
    const problems = await problemsWith('    - move: { from: seed, to: "parameters..seed" }');
    expect(problems.some((p) => p.startsWith(`gateway.yaml:${lineNumber}:31:`) && p.includes('parameters..seed'))).toBe(true);
  });

  it('rejects moving a field into itself with the line and column of `to`', async () => {
    expect(await problemsWith('    - move: { from: seed, to: seed.inner }')).toEqual([
      `gateway.yaml:${lineNumber}:31: transforms.images-a-to-envelope.5.move.to: move: cannot move \`seed\` into itself`,
    ]);
  });
});
