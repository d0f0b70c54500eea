import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

const TEAM_KEY = 'sk-keep-alive-team-key';
let gw: TestGateway;
let base: CompiledConfig;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    keys: [...config.keys, { name: 'team', secret: { sha256: createHash('sha256').update(TEAM_KEY).digest('hex') }, models: ['*'], limits: {}, strict: false }],
  }));
  base = gw.gateway.getSnapshot().config;
});
afterAll(() => gw.close());

/** Lists models over `agent` (one connection, kept alive) with the given headers; answers status and body. */
async function listModels(agent: Agent, headers: Record<string, string>, path = '/v1/models') {
  const response = await request(gw.url + path, { dispatcher: agent, headers });
  return { status: response.statusCode, body: (await response.body.json()) as any };
}

describe('keys presented again on a kept-alive connection', () => {
  it('a wrong key after a good one on the same connection is refused, whatever its length', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      expect((await listModels(agent, { authorization: `Bearer ${TEAM_KEY}` })).status).toBe(200);
      const shorter = await listModels(agent, { authorization: 'Bearer sk-short' });
      expect(shorter.status).toBe(401);
      expect(shorter.body.error.code).toBe('invalid_api_key');
      const sameLength = await listModels(agent, { authorization: `Bearer ${TEAM_KEY.slice(0, -1)}x` });
      expect(sameLength.status).toBe(401);
      expect(sameLength.body.error.code).toBe('invalid_api_key');
      expect((await listModels(agent, { authorization: `Bearer ${gw.key}` })).status).toBe(200);
    } finally {
      await agent.close();
    }
  });

  it('a key removed by a config reload is refused on a connection that used it before', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      expect((await listModels(agent, { authorization: `Bearer ${TEAM_KEY}` })).status).toBe(200);
      gw.gateway.reload({ ...base, keys: base.keys.filter((key) => key.name !== 'team') });
      const refused = await listModels(agent, { authorization: `Bearer ${TEAM_KEY}` });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('invalid_api_key');
    } finally {
      gw.gateway.reload(base);
      await agent.close();
    }
  });
});

describe('how a key may be written', () => {
  it('spaces between Bearer and the key are ignored', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      expect((await listModels(agent, { authorization: `Bearer   ${TEAM_KEY}` })).status).toBe(200);
    } finally {
      await agent.close();
    }
  });

  it('an empty x-api-key sent with anthropic-version leaves x-goog-api-key to decide on the generate-content route', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      const reply = await listModels(agent, { 'x-api-key': '', 'anthropic-version': '2023-06-01', 'x-goog-api-key': TEAM_KEY }, '/v1beta/models');
      expect(reply.status).toBe(200);
      expect(reply.body.models.length).toBeGreaterThan(0);
    } finally {
      await agent.close();
    }
  });
});
