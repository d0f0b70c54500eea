import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';
import { DEFAULT_ADMIN_PORT } from '../../src/config/compile.ts';

const BASE = `vendors:
  openai: { protocol: openai, base_url: https://api.openai.com/v1, auth: { bearer: env:OPENAI_API_KEY } }
models:
  gpt-4o: { vendor: openai }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
`;

async function compile(head: string) {
  const { config, problems } = await compileConfigText(head + BASE, 'test.yaml');
  return { config, problems: problems.map(formatProblem) };
}

describe('server.admin, server.trust_proxy and admin keys', () => {
  it('are off by default', async () => {
    const { config, problems } = await compile('keys:\n  - { name: app, key: env:APP_KEY, models: ["*"] }\n');
    expect(problems).toEqual([]);
    expect(config!.server.admin).toBeUndefined();
    expect(config!.server.trustProxy).toBeUndefined();
    expect(config!.keys[0].admin).toBeUndefined();
  });

  it('compile with the documented defaults: 127.0.0.1 and port 8788', async () => {
    const { config, problems } = await compile('server:\n  admin: {}\n  trust_proxy: true\nkeys:\n  - { name: ops, key: env:OPS_KEY, admin: true }\n');
    expect(problems).toEqual([]);
    expect(config!.server.admin).toEqual({ host: '127.0.0.1', port: DEFAULT_ADMIN_PORT });
    expect(DEFAULT_ADMIN_PORT).toBe(8788);
    expect(config!.server.trustProxy).toBe(true);
    expect(config!.keys[0]).toMatchObject({ name: 'ops', admin: true, models: [] });
  });

  it('still need models on a client key, and refuse a bad admin port or an unknown admin field, naming the place', async () => {
    expect((await compile('keys:\n  - { name: app, key: env:APP_KEY }\n')).problems.join('\n')).toMatch(/test\.yaml:\d+:\d+: .*models/);
    expect((await compile('server:\n  admin: { port: 70000 }\n')).problems.join('\n')).toMatch(/server\.admin\.port/);
    expect((await compile('server:\n  admin: { path: /x }\n')).problems.join('\n')).toMatch(/server\.admin/);
    expect((await compile('keys:\n  - { name: ops, key: env:OPS_KEY, admin: yes-please }\n')).problems.join('\n')).toMatch(/keys\.0\.admin/);
  });
});
