import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SECRET, startConsoleGateway, type ConsoleGateway } from '../helpers/start-console-gateway.ts';

/**
 * With no GATEWAY_TASK_SECRET, video task ids are signed by a secret that does not change with the key set:
 * issuing or disabling a key in the console (an override, so a reload with other keys) leaves earlier ids valid.
 */
let gw: ConsoleGateway;
beforeAll(async () => {
  gw = await startConsoleGateway();
});
afterAll(() => gw.close());

const videos = () => new OpenAI({ apiKey: TEAM_SECRET, baseURL: `${gw.url}/v1`, maxRetries: 0 }).videos;

describe('a video task id created before a key change', () => {
  it('still resolves after keys are issued and one is disabled, and reaches the vendor with its own id', async () => {
    expect(gw.env.GATEWAY_TASK_SECRET).toBeUndefined();
    // JSON, as endpoints.test.ts creates videos (the SDK's create sends multipart, which /v1/videos refuses with 415).
    const answer = await fetch(`${gw.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEAM_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sora-2', prompt: 'a lighthouse' }),
    });
    const created = (await answer.json()) as { id: string };
    expect(created.id).toMatch(/^task_/);
    const before = gw.gateway.getSnapshot().generation;
    for (const name of ['fresh', 'spare']) expect((await gw.callAdmin('/admin/keys/issue', { body: { name, models: ['*'] } })).status).toBe(201);
    expect((await gw.callAdmin('/admin/keys/disable', { body: { name: 'spare' } })).status).toBe(200);
    expect(gw.gateway.getSnapshot().generation).toBeGreaterThan(before);
    gw.sims.openai.reset();
    const found = await videos().retrieve(created.id);
    expect(found).toMatchObject({ id: created.id, model: 'sora-2' });
    expect(gw.sims.openai.received.map((r) => `${r.method} ${r.url}`)).toEqual([expect.stringMatching(/^GET \/v1\/videos\/video_/)]);
  });
});
