import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A gateway started with no usage receiver: usage is then read only where something needs it. */
let gw: TestGateway;
const SECRET = 'sk-handle-request-tpm';

beforeAll(async () => {
  gw = await startTestGateway(
    (config) => ({
      ...config,
      keys: [
        ...config.keys,
        { name: 'tpm', secret: { sha256: createHash('sha256').update(SECRET).digest('hex') }, models: ['*'], limits: { tpm: 4 }, strict: false },
      ],
    }),
    { usageEvents: false },
  );
});
afterAll(() => gw.close());

async function chat(key: string) {
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'count my tokens' }] }),
  });
  return { status: response.status, json: (await response.json()) as any, headers: response.headers };
}

describe('the request listener without a usage receiver', () => {
  it("still charges a JSON answer's tokens to a key with a token limit", async () => {
    const first = await chat(SECRET);
    expect(first.status).toBe(200);
    expect(first.json.usage.total_tokens).toBeGreaterThan(4);
    // The charge happens when the response closes, just after the client has read it.
    let refused = await chat(SECRET);
    for (let i = 0; i < 20 && refused.status === 200; i++) refused = await chat(SECRET);
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain('Rate limit reached for tokens');
    expect(gw.events).toEqual([]);
    expect(gw.sims.openai.received.length).toBeGreaterThanOrEqual(1);
  });

  it('answers a key without limits with the vendor bytes unchanged', async () => {
    gw.sims.openai.reset();
    const { status, json, headers } = await chat(gw.key);
    expect(status).toBe(200);
    expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(json))));
    expect(json.object).toBe('chat.completion');
    expect(gw.sims.openai.received).toHaveLength(1);
    const sent = gw.sims.openai.received[0];
    expect(JSON.parse(sent.body.toString()).model).toBe('gpt-4o-mini');
    expect(sent.headers.authorization).toMatch(/^Bearer sk-sim-/);
  });
});
