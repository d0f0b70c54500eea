import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compileConfigFile, compileConfigText, formatProblem } from '../../src/config/index.ts';

const run = promisify(execFile);

const BASE = `vendors:
  openai: { protocol: openai, base_url: https://api.openai.com/v1, auth: { bearer: env:OPENAI_API_KEY } }
models:
  gpt-4o: { vendor: openai }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
`;

async function problemsOf(text: string): Promise<string[]> {
  const { problems } = await compileConfigText(text, 'test.yaml');
  return problems.map(formatProblem);
}

describe('gateway check', () => {
  it('accepts a clean config and compiles it', async () => {
    const { config, problems } = await compileConfigText(BASE);
    expect(problems).toEqual([]);
    expect(config!.models['gpt-4o'].targets).toEqual([{ vendor: 'openai', upstream: 'gpt-4o', weight: 1 }]);
    expect(config!.vendors.openai.auth).toEqual({ kind: 'bearer', env: 'OPENAI_API_KEY' });
  });

  it.each([
    ['YAML syntax error', BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: openai'), /^test\.yaml:\d+:\d+: /],
    ['unknown vendor', BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: azure }'), /^test\.yaml:4:21: models\.gpt-4o\.vendor: unknown vendor "azure"$/],
    ['duplicate model id', BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: openai }\n  gpt-4o: { vendor: openai }'), /^test\.yaml:5:3: Map keys must be unique/],
    ['unknown schema', BASE.replace('schema: chat-completions', 'schema: chat-v9'), /^test\.yaml:6:101: routes\.0\.schema: unknown schema "chat-v9"/],
    ['unknown operation', BASE.replace('op: chat,', 'op: chatter,'), /^test\.yaml:6:68: routes\.0\.op: must be one of: /],
    ['invalid URL', BASE.replace('https://api.openai.com/v1', 'not a url'), /^test\.yaml:2:41: vendors\.openai\.base_url: invalid URL "not a url"$/],
    ['malformed env reference', BASE.replace('env:OPENAI_API_KEY', 'sk-live-123'), /^test\.yaml:2:\d+: vendors\.openai\.auth\.bearer: "sk-live-123" does not match/],
    ['unknown field', BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: openai, vendr: x }'), /^test\.yaml:4:\d+: models\.gpt-4o\.vendr: unknown field "vendr"$/],
    ['bad transform op', BASE + 'transforms:\n  t:\n    - rename: { from: a, to: b }\n', /^test\.yaml:9:\d+: transforms\.t\.0\.rename: unknown field "rename"$/],
    ['bad transform path', BASE + 'transforms:\n  t:\n    - move: { from: "a..b", to: b }\n', /^test\.yaml:9:\d+: transforms\.t\.0\.move\.from: "a\.\.b" does not match/],
    ['unknown transform', BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: openai, images: { transform: nope } }'), /^test\.yaml:4:\d+: models\.gpt-4o\.images\.transform: unknown transform "nope"$/],
    ['unknown fallback condition', BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: openai, routing: { fallback_on: ["503", always] } }'), /^test\.yaml:4:\d+: models\.gpt-4o\.routing\.fallback_on\.1: "always" does not match/],
    ['non-boolean responses.store', BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: openai, responses: { store: "no" } }'), /^test\.yaml:4:\d+: models\.gpt-4o\.responses\.store: must be boolean/],
    ['bad server.responses.ttl', 'server: { responses: { ttl: 30days } }\n' + BASE, /^test\.yaml:1:\d+: server\.responses\.ttl: "30days" does not match/],
    ['model path parameter missing', BASE.replace('model: body.model', 'model: path.model'), /^test\.yaml:6:\d+: routes\.0\.model: path has no parameter \{model\}$/],
  ])('reports %s with its line and column', async (_name, text, expected) => {
    const problems = await problemsOf(text);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(expected);
  });

  it('compiles Responses state settings: server ttl and max size (defaults 30 days, 1 MiB), store: false on a model and a key', async () => {
    const text = 'server: { responses: { ttl: 2d, max_size: 64kb } }\nkeys:\n  - { name: k, key: env:K, models: ["*"], responses: { store: false } }\n'
      + BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: openai, responses: { store: false } }');
    const { config, problems } = await compileConfigText(text);
    expect(problems).toEqual([]);
    expect(config!.server.responses).toEqual({ ttlMs: 2 * 86_400_000, maxBytes: 65_536 });
    expect(config!.keys[0].responses).toEqual({ store: false });
    expect(config!.models['gpt-4o'].responses).toEqual({ store: false });
    expect((await compileConfigText(BASE)).config!.server.responses).toEqual({ ttlMs: 30 * 86_400_000, maxBytes: 1_048_576 });
  });

  it('exits 1 and prints file:line:col for a broken file, 0 for a clean one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-check-'));
    const broken = join(dir, 'broken.yaml');
    const clean = join(dir, 'clean.yaml');
    await writeFile(broken, BASE.replace('gpt-4o: { vendor: openai }', 'gpt-4o: { vendor: azure }'));
    await writeFile(clean, BASE);
    const failed = await run('npx', ['tsx', 'src/cli.ts', 'check', broken]).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(`${broken}:4:21: models.gpt-4o.vendor: unknown vendor "azure"`);
    const ok = await run('npx', ['tsx', 'src/cli.ts', 'check', clean]);
    expect(ok.stdout).toContain('ok');
  }, 30_000);

  it('accepts the default gateway.yaml', async () => {
    const { problems } = await compileConfigFile('gateway.yaml');
    expect(problems.map(formatProblem)).toEqual([]);
  });
});
