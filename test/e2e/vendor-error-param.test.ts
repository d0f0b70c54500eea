import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** An OpenAI-style vendor error names the request field it is about (`param`): the OpenAI-style client gets it too. */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
const vendorError = (param: unknown) => ({ error: { message: 'Invalid value for temperature.', type: 'invalid_request_error', param, code: 'invalid_value' } });
const ask = () => openai().chat.completions.create({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }], temperature: 1 }).catch((error: unknown) => error as any);

describe("a vendor error's param", () => {
  it('reaches an OpenAI SDK client as the vendor sent it, with the vendor’s status and code', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 400, body: vendorError('temperature') });
    const error = await ask();
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toMatchObject({ message: 'Invalid value for temperature.', param: 'temperature', code: 'invalid_value' });
    expect(error.param).toBe('temperature');
    expect(JSON.parse(gw.sims.openai.received.at(-1)!.body.toString())).toMatchObject({ model: 'gpt-4o-mini', temperature: 1 });
  });

  it.each([[null], [undefined], [42]])('is null when the vendor named none (%s)', async (param) => {
    gw.sims.openai.failNext({ kind: 'status', status: 400, body: vendorError(param) });
    const error = await ask();
    expect(error.status).toBe(400);
    expect(error.error.param).toBeNull();
  });

  it('has the gateway’s secrets redacted like the message', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 400, body: vendorError(`messages with key ${SIMULATOR_KEYS.openai}`) });
    const error = await ask();
    expect(error.error.param).toBe('messages with key [redacted]');
  });
});
