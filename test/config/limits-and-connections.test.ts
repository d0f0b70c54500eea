import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { createSnapshot, closeSnapshot } from '../../src/runtime/snapshot.ts';

const CONFIG = `server:
  limits: { rpm: 1, tpm: 10, concurrency: 1 }
keys:
  - { name: capped, key: env:CAPPED_KEY, models: ["*"] }
  - { name: unlimited, key: env:UNLIMITED_KEY, models: ["*"], limits: { rpm: 0, tpm: 0, concurrency: 0 } }
vendors:
  openai: { protocol: openai, base_url: https://api.openai.com/v1, auth: { bearer: env:OPENAI_API_KEY } }
  small: { protocol: openai, base_url: https://small.example/v1, auth: { bearer: env:SMALL_KEY }, connections: 4 }
models:
  gpt-4o: { vendor: openai }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
`;

describe('limits of 0', () => {
  it('are accepted by the checker and mean no limit, overriding the server default', async () => {
    const { config, problems } = await compileConfigText(CONFIG, 'test.yaml');
    expect(problems.map(formatProblem)).toEqual([]);
    const [capped, unlimited] = config!.keys;
    expect(unlimited.limits).toEqual({ rpm: 0, tpm: 0, concurrency: 0 });
    const limiter = createLimiter(createMemoryStore(), config!.server.defaultLimits);
    for (let i = 0; i < 5; i++) {
      const admission = await limiter.admit(unlimited);
      expect(admission.headers).toEqual({});
    }
    await limiter.admit(capped);
    await expect(limiter.admit(capped)).rejects.toMatchObject({ status: 429 });
  });

  it('still rejects a negative limit, naming the field', async () => {
    const { problems } = await compileConfigText(CONFIG.replace('rpm: 0,', 'rpm: -1,'), 'test.yaml');
    expect(problems.map(formatProblem).join('\n')).toMatch(/keys\.1\.limits\.rpm: .*>= 0/);
  });
});

describe('the per-vendor connection cap', () => {
  it('is 128 by default and set per vendor by `connections`, down to the vendor pool', async () => {
    const { config } = await compileConfigText(CONFIG, 'test.yaml');
    expect(config!.vendors.openai.connections).toBe(128);
    expect(config!.vendors.small.connections).toBe(4);
    const snapshot = createSnapshot(config!, {});
    try {
      const pool = snapshot.vendors.get('small')!.dispatcher as unknown as Record<symbol, unknown>;
      const connections = Object.getOwnPropertySymbols(pool).find((symbol) => symbol.description === 'connections');
      expect(pool[connections!]).toBe(4);
    } finally {
      await closeSnapshot(snapshot);
    }
  });

  it('rejects 0 connections, naming the field', async () => {
    const { problems } = await compileConfigText(CONFIG.replace('connections: 4', 'connections: 0'), 'test.yaml');
    expect(problems.map(formatProblem).join('\n')).toMatch(/vendors\.small\.connections: .*>= 1/);
  });
});
