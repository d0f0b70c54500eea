import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

const OTHER_KEY = 'sk-other-key-for-vendor-responses';
const MODEL = 'sim-openai-chat';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway((config) => ({
    ...config,
    keys: [...config.keys, { name: 'other', secret: { sha256: createHash('sha256').update(OTHER_KEY).digest('hex') }, models: ['*'], limits: {}, strict: false }],
  }));
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

const openai = (apiKey = gw.key) => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey, maxRetries: 0 });

/** What the simulated OpenAI vendor received: method, path and query, and the credential it was called with. */
const readReceived = () => gw.sims.openai.received.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`);
const AUTH = `Bearer ${SIMULATOR_KEYS.openai}`;

describe('a response kept by an OpenAI-protocol vendor is served from that vendor', () => {
  test.each([false, true])('stream %s: created, retrieved, its input items listed, deleted, then 404', async (stream) => {
    const created = stream
      ? await openai().responses.stream({ model: MODEL, input: 'kept by the vendor' }).finalResponse()
      : await openai().responses.create({ model: MODEL, input: 'kept by the vendor' });
    expect(created.id).toMatch(/^resp_sim/);
    gw.sims.openai.reset();
    const retrieved = await openai().responses.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, status: 'completed', output_text: 'Echo: kept by the vendor' });
    const items = await openai().responses.inputItems.list(created.id, { limit: 5, order: 'asc' });
    expect(items.data.map((item: any) => [item.type, item.role, item.content[0].text])).toEqual([['message', 'user', 'kept by the vendor']]);
    const deleted: unknown = await openai().responses.delete(created.id);
    expect(deleted).toMatchObject({ id: created.id, object: 'response', deleted: true });
    expect(readReceived()).toEqual([
      `GET /v1/responses/${created.id} ${AUTH}`,
      `GET /v1/responses/${created.id}/input_items?limit=5&order=asc ${AUTH}`,
      `DELETE /v1/responses/${created.id} ${AUTH}`,
    ]);
    gw.sims.openai.reset();
    const error: any = await openai().responses.retrieve(created.id).catch((e) => e);
    expect([error.status, error.error?.code]).toEqual([404, 'response_not_found']);
    expect(gw.sims.openai.received).toEqual([]);
  });

  test('previous_response_id passes through: the vendor resolves it, and the new response is served too', async () => {
    const first = await openai().responses.create({ model: MODEL, input: 'first' });
    const second = await openai().responses.create({ model: MODEL, input: 'second', previous_response_id: first.id });
    expect(JSON.parse(gw.sims.openai.received.at(-1)!.body.toString())).toEqual({ model: 'gpt-4o-mini', input: 'second', previous_response_id: first.id });
    const items = await openai().responses.inputItems.list(second.id, { order: 'asc' });
    expect(items.data.map((item: any) => item.content[0].text)).toEqual(['first', 'Echo: first', 'second']);
  });

  test('another key, an unknown id and a store: false response are 404 in the OpenAI shape before any vendor call', async () => {
    const mine = await openai().responses.create({ model: MODEL, input: 'mine' });
    const unstored = await openai().responses.create({ model: MODEL, input: 'not kept', store: false });
    gw.sims.openai.reset();
    for (const request of [
      () => openai(OTHER_KEY).responses.retrieve(mine.id),
      () => openai(OTHER_KEY).responses.inputItems.list(mine.id),
      () => openai(OTHER_KEY).responses.delete(mine.id),
      () => openai().responses.retrieve('resp_unknown'),
      () => openai().responses.retrieve(unstored.id),
    ]) {
      const error: any = await request().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'response_not_found' });
    }
    expect(gw.sims.openai.received).toEqual([]);
    expect((await openai().responses.retrieve(mine.id)).output_text).toBe('Echo: mine');
  });

  test("a bad input_items query reaches the vendor as it is, and the vendor's 400 reaches the client", async () => {
    const created = await openai().responses.create({ model: MODEL, input: 'page me' });
    gw.sims.openai.reset();
    const error: any = await openai().responses.inputItems.list(created.id, { limit: 0, include: ['message.input_image.image_url'] }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error.message).toContain('limit');
    expect(gw.sims.openai.received.map((r) => decodeURIComponent(r.url))).toEqual([`/v1/responses/${created.id}/input_items?limit=0&include[]=message.input_image.image_url`]);
  });

  const lookups = {
    retrieve: (id: string) => openai().responses.retrieve(id),
    'input items': (id: string) => openai().responses.inputItems.list(id),
    delete: (id: string) => openai().responses.delete(id),
  };

  test.each(Object.keys(lookups) as (keyof typeof lookups)[])("the vendor's own 404 to %s reaches the client and forgets the note: later lookups are 404 without a vendor call", async (first) => {
    const created = await openai().responses.create({ model: MODEL, input: 'short-lived' });
    const vendor = new OpenAI({ baseURL: gw.sims.openai.url, apiKey: SIMULATOR_KEYS.openai, maxRetries: 0 });
    await vendor.responses.delete(created.id);
    gw.sims.openai.reset();
    const error: any = await lookups[first](created.id).catch((e) => e);
    expect(error.status).toBe(404);
    expect(error.error.message).toContain(created.id);
    expect(readReceived()).toHaveLength(1);
    gw.sims.openai.reset();
    for (const lookup of Object.values(lookups)) {
      const again: any = await lookup(created.id).catch((e) => e);
      expect([again.status, again.error?.code]).toEqual([404, 'response_not_found']);
    }
    expect(gw.sims.openai.received).toEqual([]);
  });

  test('a vendor stream cut midway still ends with the error event, and one cut before any byte is a 502', async () => {
    const post = () => fetch(`${gw.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, input: 'cut me', stream: true }),
    });
    gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 2 });
    const cut = await post();
    const text = await cut.text();
    expect([cut.status, text.startsWith('event: response.created')]).toEqual([200, true]);
    expect(text).toContain('upstream_stream_failed');
    gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 0 });
    const early = await post();
    expect(early.status).toBe(502);
    expect((await early.json()).error).toMatchObject({ type: expect.any(String) });
  });
});
