/**
 * Uploads over the body limit are answered 413 in the route's style and every client reads the answer:
 * 64 MiB bodies sent 20 times by Node's fetch and by undici, and a chunked body without a content-length.
 * Heavy (over 2 GiB sent in all), so it runs alone among the heavy test files.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

runAlone();

let gw: TestGateway;
const LIMIT = 1024 * 1024;

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({ ...config, server: { ...config.server, bodyLimitBytes: LIMIT } }));
});
afterAll(() => gw.close());

describe('an upload over the body limit', () => {
  const huge = Buffer.alloc(LIMIT + 64 * 1024 * 1024, 0x20);

  it("is answered 413 and Node's fetch reads it in 20 of 20 tries", async () => {
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 20; i++) {
      const status = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
        body: huge,
      }).then(
        async (response) => ((await response.json()) as any).error.code as string,
        (error: Error) => `failed: ${(error.cause as Error)?.message ?? error.message}`,
      );
      statuses.push(status);
    }
    expect(statuses).toEqual(Array(20).fill('request_too_large'));
  }, 180_000);

  it("is answered 413 and undici's request reads it in 20 of 20 tries", async () => {
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 20; i++) {
      const status = await request(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: huge,
      }).then(
        async (response) => `${response.statusCode} ${((await response.body.json()) as any).error.type}`,
        (error: Error) => `failed: ${error.message}`,
      );
      statuses.push(status);
    }
    expect(statuses).toEqual(Array(20).fill('413 request_too_large'));
  }, 180_000);

  it('is answered 413 when it comes chunked, without a content-length', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if ((sent += chunk.length) > 4 * LIMIT) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${gw.url}/v1beta/models/sim-gemini-chat:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': gw.key, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 413, status: 'INVALID_ARGUMENT' } });
  });
});
