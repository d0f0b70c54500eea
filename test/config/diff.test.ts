import { describe, expect, it } from 'vitest';
import { diffConfigs } from '../../src/config/diff.ts';

/** A small config in gateway.yaml's terms (as the YAML parser hands it over). */
function baseConfig(): any {
  return {
    server: { port: 8787, limits: { rpm: 600, tpm: 2000000 }, task_secret: 'env:GATEWAY_TASK_SECRET' },
    keys: [
      { name: 'team-a', key: 'env:TEAM_A_KEY', models: ['*'], limits: { rpm: 60 } },
      { name: 'team-b', sha256: 'a'.repeat(64), models: ['gpt-4o'] },
    ],
    vendors: {
      openai: { protocol: 'openai', base_url: 'https://api.openai.com/v1', auth: { bearer: 'env:OPENAI_API_KEY' } },
    },
    models: {
      'gpt-4o': { vendor: 'openai' },
      'gpt-4.1': { vendor: 'openai' },
      'dall-e-3': { vendor: 'openai', images: { shape: 'openai', max_n: 1, sizes: ['1024x1024'] } },
    },
    transforms: { 'a-to-b': [{ move: { from: 'prompt', to: 'input.prompt' } }, { drop: { at: 'user' } }] },
    routes: [
      { method: 'POST', path: '/v1/chat/completions', style: 'openai', op: 'chat', model: 'body.model', schema: 'chat-completions' },
      { method: 'GET', path: '/v1/models', style: 'openai', op: 'models-list' },
    ],
  };
}

describe('diffConfigs', () => {
  it('finds nothing between equal configs, whatever their key and list order', () => {
    const after = baseConfig();
    after.keys.reverse();
    after.routes.reverse();
    after.models = Object.fromEntries(Object.entries(after.models).reverse());
    expect(diffConfigs(baseConfig(), after)).toEqual([]);
  });

  it('reports models added, removed and changed with before and after; dotted ids in brackets', () => {
    const after = baseConfig();
    after.models['gpt-4o'].vendor = 'azure';
    delete after.models['gpt-4.1'];
    after.models['new-model'] = { vendor: 'openai', upstream: 'gpt-5' };
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'models["gpt-4.1"]', kind: 'removed', before: { vendor: 'openai' } },
      { path: 'models.gpt-4o.vendor', kind: 'changed', before: 'openai', after: 'azure' },
      { path: 'models.new-model', kind: 'added', after: { vendor: 'openai', upstream: 'gpt-5' } },
    ]);
  });

  it('reports image options field by field, and a list of plain values as a whole', () => {
    const after = baseConfig();
    after.models['dall-e-3'].images.max_n = 2;
    after.models['dall-e-3'].images.sizes = ['1024x1024', '1792x1024'];
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'models.dall-e-3.images.max_n', kind: 'changed', before: 1, after: 2 },
      { path: 'models.dall-e-3.images.sizes', kind: 'changed', before: ['1024x1024'], after: ['1024x1024', '1792x1024'] },
    ]);
  });

  it('reports vendors, showing the env var names of vendor auth (names, not secrets)', () => {
    const after = baseConfig();
    after.vendors.openai.auth = { bearer: 'env:OPENAI_KEY_2' };
    after.vendors.azure = { protocol: 'openai', base_url: 'https://x.example/v1' };
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'vendors.azure', kind: 'added', after: { protocol: 'openai', base_url: 'https://x.example/v1' } },
      { path: 'vendors.openai.auth.bearer', kind: 'changed', before: 'env:OPENAI_API_KEY', after: 'env:OPENAI_KEY_2' },
    ]);
  });

  it('reports server settings and default limits', () => {
    const after = baseConfig();
    after.server.port = 9000;
    after.server.limits.rpm = 100;
    delete after.server.limits.tpm;
    after.server.limits.concurrency = 10;
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'server.limits.concurrency', kind: 'added', after: 10 },
      { path: 'server.limits.rpm', kind: 'changed', before: 600, after: 100 },
      { path: 'server.limits.tpm', kind: 'removed', before: 2000000 },
      { path: 'server.port', kind: 'changed', before: 8787, after: 9000 },
    ]);
  });

  it('matches keys by name and reports their limits and models', () => {
    const after = baseConfig();
    after.keys[0].limits.rpm = 120;
    after.keys[1].models = ['gpt-4o', 'gpt-4.1'];
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'keys.team-a.limits.rpm', kind: 'changed', before: 60, after: 120 },
      { path: 'keys.team-b.models', kind: 'changed', before: ['gpt-4o'], after: ['gpt-4o', 'gpt-4.1'] },
    ]);
  });

  it('reports a changed secret source or digest as changed with neither value', () => {
    const after = baseConfig();
    after.keys[0].key = 'env:TEAM_A_KEY_ROTATED';
    after.keys[1].sha256 = 'b'.repeat(64);
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'keys.team-a.key', kind: 'changed', secret: true },
      { path: 'keys.team-b.sha256', kind: 'changed', secret: true },
    ]);
  });

  it('redacts the secret inside a key added, removed or switched from env to digest', () => {
    const after = baseConfig();
    after.keys = [
      { name: 'team-a', sha256: 'c'.repeat(64), models: ['*'], limits: { rpm: 60 } },
      { name: 'team-c', key: 'env:TEAM_C_KEY', models: ['*'] },
    ];
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'keys.team-a.key', kind: 'removed', before: '(secret)' },
      { path: 'keys.team-a.sha256', kind: 'added', after: '(secret)' },
      { path: 'keys.team-b', kind: 'removed', before: { name: 'team-b', sha256: '(secret)', models: ['gpt-4o'] } },
      { path: 'keys.team-c', kind: 'added', after: { name: 'team-c', key: '(secret)', models: ['*'] } },
    ]);
  });

  it('redacts every key secret when the whole keys section appears', () => {
    const before = baseConfig();
    delete before.keys;
    const [change] = diffConfigs(before, baseConfig());
    expect(change.path).toBe('keys');
    expect(JSON.stringify(change)).not.toMatch(/TEAM_A_KEY|aaaa/);
    expect(change.after).toEqual([
      { name: 'team-a', key: '(secret)', models: ['*'], limits: { rpm: 60 } },
      { name: 'team-b', sha256: '(secret)', models: ['gpt-4o'] },
    ]);
  });

  it('redacts vendor headers whose name looks like a credential, and shows the others (names in code-point order)', () => {
    const before = baseConfig();
    before.vendors.openai.headers = { Authorization: 'Bearer sk-literal-1', 'anthropic-version': '1' };
    const after = baseConfig();
    after.vendors.openai.headers = { Authorization: 'Bearer sk-literal-2', 'anthropic-version': '2', 'X-Api-Key': 'k3' };
    expect(diffConfigs(before, after)).toEqual([
      { path: 'vendors.openai.headers.Authorization', kind: 'changed', secret: true },
      { path: 'vendors.openai.headers.X-Api-Key', kind: 'added', after: '(secret)' },
      { path: 'vendors.openai.headers.anthropic-version', kind: 'changed', before: '1', after: '2' },
    ]);
  });

  it('matches routes by method and path', () => {
    const after = baseConfig();
    after.routes[0].schema = 'model-body';
    after.routes.push({ method: 'POST', path: '/v1/embeddings', style: 'openai', op: 'embeddings', model: 'body.model' });
    after.routes.splice(1, 1);
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'routes["GET /v1/models"]', kind: 'removed', before: baseConfig().routes[1] },
      { path: 'routes["POST /v1/chat/completions"].schema', kind: 'changed', before: 'chat-completions', after: 'model-body' },
      { path: 'routes["POST /v1/embeddings"]', kind: 'added', after: after.routes[1] },
    ]);
  });

  it('reports a changed transform op field by field, and an appended op', () => {
    const after = baseConfig();
    after.transforms['a-to-b'][0].move.to = 'input.text';
    after.transforms['a-to-b'].push({ drop: { at: 'style' } });
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'transforms.a-to-b[0].move.to', kind: 'changed', before: 'input.prompt', after: 'input.text' },
      { path: 'transforms.a-to-b[2]', kind: 'added', after: { drop: { at: 'style' } } },
    ]);
  });

  it('matches equal transform ops across an insertion or a removal, so only the moved op is reported', () => {
    const after = baseConfig();
    after.transforms['a-to-b'].unshift({ set: { at: 'parameters.n', value: 1 } });
    after.transforms['a-to-b'].pop();
    expect(diffConfigs(baseConfig(), after)).toEqual([
      { path: 'transforms.a-to-b[0]', kind: 'added', after: { set: { at: 'parameters.n', value: 1 } } },
      { path: 'transforms.a-to-b[1]', kind: 'removed', before: { drop: { at: 'user' } } },
    ]);
  });

  it('reports model targets entry by entry', () => {
    const before = baseConfig();
    before.models['gpt-4o'] = { targets: [{ vendor: 'openai', model: 'gpt-4o', weight: 1 }, { vendor: 'azure', model: 'gpt-4o' }] };
    const after = baseConfig();
    after.models['gpt-4o'] = { targets: [{ vendor: 'openai', model: 'gpt-4o', weight: 3 }, { vendor: 'azure', model: 'gpt-4o' }] };
    expect(diffConfigs(before, after)).toEqual([
      { path: 'models.gpt-4o.targets[0].weight', kind: 'changed', before: 1, after: 3 },
    ]);
  });

  it('treats names such as "constructor" and "10" like any other name', () => {
    const after = baseConfig();
    after.models.constructor = { vendor: 'openai' };
    after.keys.push({ name: '10', key: 'env:TEN_KEY', models: ['*'] }, { name: '9', sha256: 'd'.repeat(64), models: ['*'] });
    const changes = diffConfigs(baseConfig(), after);
    expect(changes).toEqual([
      { path: 'models.constructor', kind: 'added', after: { vendor: 'openai' } },
      { path: 'keys.10', kind: 'added', after: { name: '10', key: '(secret)', models: ['*'] } },
      { path: 'keys.9', kind: 'added', after: { name: '9', sha256: '(secret)', models: ['*'] } },
    ]);
  });

  it('reports sections it has no rule for (budgets, prices) generically, after the known sections', () => {
    const after = baseConfig();
    after.prices = { 'gpt-4o': { input: 2.5 } };
    after.budgets = { 'team-a': { usd: 50 } };
    after.server.port = 1;
    expect(diffConfigs(baseConfig(), after).map((c) => c.path)).toEqual(['server.port', 'budgets', 'prices']);
  });
});
