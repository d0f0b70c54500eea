import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { defineBenchConfig } from '../../bench/config.ts';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import { readPlainYaml } from '../../src/config/read-plain-yaml.ts';

const URLS = { vendor: 'http://127.0.0.1:9/v1', slowVendor: 'http://127.0.0.1:8/v1', anthropic: 'http://127.0.0.1:9', dashscope: 'http://127.0.0.1:7/api/v1' };

/** A config as `yaml` writes it in block style (the bench's configs, the console's overrides). */
const BLOCK = `vendors:
  openai:
    protocol: openai
    base_url: https://api.openai.com/v1
    auth:
      bearer: env:OPENAI_API_KEY
models:
  gpt-4o:
    vendor: openai
routes:
  - method: POST
    path: /v1/chat/completions
    style: openai
    op: chat
    model: body.model
    schema: chat-completions
`;

describe('parseConfig on the fast path', () => {
  it('reads a 2,000-model bench config (as bench/config.ts writes it) on the fast path, to the value yaml reads', () => {
    const text = stringify(defineBenchConfig(2000, URLS), { lineWidth: 0, aliasDuplicateObjects: false });
    const fast = readPlainYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(parse(text));
    expect(parseConfig(text).value).toEqual(fast);
  });

  it('still places a problem of a fast-read config at its line and column', async () => {
    expect(readPlainYaml(BLOCK)).toBeDefined();
    const { config, problems } = await compileConfigText(BLOCK.replace('vendor: openai', 'vendor: azure'), 'block.yaml');
    expect(config).toBeUndefined();
    expect(problems.map(formatProblem)).toEqual(['block.yaml:9:13: models.gpt-4o.vendor: unknown vendor "azure"']);
  });

  it('reports a repeated key with its place, as the document API does', async () => {
    const { problems } = await compileConfigText(BLOCK.replace('  gpt-4o:\n    vendor: openai\n', '  gpt-4o:\n    vendor: openai\n  gpt-4o:\n    vendor: openai\n'), 'block.yaml');
    expect(problems.map(formatProblem)[0]).toMatch(/^block\.yaml:10:3: Map keys must be unique/);
  });
});
