import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

/** `server.console` in gateway.yaml: off by default, on beside `server.admin`, refused without it. */
const BASE = `vendors:
  openai: { protocol: openai, base_url: https://api.openai.com/v1, auth: { bearer: env:OPENAI_API_KEY } }
models:
  gpt-4o: { vendor: openai }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
keys:
  - { name: ops, key: env:OPS_KEY, admin: true }
`;

async function compile(server: string) {
  const { config, problems } = await compileConfigText(`server:\n${server}\n${BASE}`, 'test.yaml');
  return { config, problems: problems.map(formatProblem) };
}

describe('server.console', () => {
  it('is off by default', async () => {
    const { config, problems } = await compile('  admin: {}');
    expect(problems).toEqual([]);
    expect(config!.server.console).toBeUndefined();
  });

  it('is on with server.admin', async () => {
    const { config } = await compile('  admin: {}\n  console: true');
    expect(config!.server.console).toBe(true);
  });

  it('is refused without server.admin, and when it is not a boolean', async () => {
    expect((await compile('  console: true')).problems).toEqual([expect.stringMatching(/^test\.yaml:\d+:\d+: server\.console: the console is served on the admin listener: set server\.admin too$/)]);
    expect((await compile('  admin: {}\n  console: "yes"')).problems.join('\n')).toMatch(/server\.console: must be boolean/);
  });
});
