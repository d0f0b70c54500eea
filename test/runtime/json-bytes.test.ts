import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isJsonContentType } from '../../src/runtime/json-bytes.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
});

/** Every request any simulated vendor received since the last reset. */
const vendorCalls = () => gw.sims.openai.received.length + gw.sims.anthropic.received.length + gw.sims.gemini.received.length;

type Target = { path: string; headers: Record<string, string>; body: object };
const targets = (): Record<string, Target> => ({
  openai: {
    path: '/v1/chat/completions',
    headers: { authorization: `Bearer ${gw.key}` },
    body: { model: 'sim-anthropic-chat', messages: [{ role: 'user', content: 'hi' }] },
  },
  anthropic: {
    path: '/v1/messages',
    headers: { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' },
    body: { model: 'sim-anthropic-chat', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
  },
  gemini: {
    path: '/v1beta/models/sim-gemini-chat:generateContent',
    headers: { 'x-goog-api-key': gw.key },
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
});

/** Sends `body` (as bytes: fetch adds no content type of its own) with `contentType`, none when null. */
async function send(style: string, body: string | Buffer, contentType: string | null = 'application/json') {
  const target = targets()[style];
  const headers: Record<string, string> = { ...target.headers };
  if (contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(gw.url + target.path, { method: 'POST', headers, body: Buffer.from(body) });
  return { status: response.status, body: (await response.json()) as any, id: response.headers.get('x-request-id') };
}

/** The error code or status a reply names, whatever its style. */
const codeOf = (body: any) => body.error?.code ?? body.error?.type;

describe.each(['openai', 'anthropic', 'gemini'])('the gateway decides before the vendor is called (%s style)', (style) => {
  const good = () => JSON.stringify(targets()[style].body);

  it('serves a JSON body labelled application/json with a charset, or application/*+json', async () => {
    expect((await send(style, good(), 'application/json; charset=utf-8')).status).toBe(200);
    expect((await send(style, good(), 'Application/Vnd.Example+JSON')).status).toBe(200);
    expect(vendorCalls()).toBe(2);
  });

  it.each(['text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', null])(
    'answers a JSON body with content type %s 415 unsupported_media_type',
    async (contentType) => {
      const reply = await send(style, good(), contentType);
      expect(reply.status).toBe(415);
      expect(reply.id).toMatch(/^[0-9a-f-]{36}$/);
      if (style === 'openai') expect(reply.body.error.code).toBe('unsupported_media_type');
      expect(vendorCalls()).toBe(0);
    },
  );

  it('answers a body that is not valid UTF-8 400', async () => {
    const text = good();
    const at = text.indexOf('hi');
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at))]);
    const reply = await send(style, bytes);
    expect(reply.status).toBe(400);
    if (style === 'openai') expect(codeOf(reply.body)).toBe('invalid_utf8');
    expect(vendorCalls()).toBe(0);
  });

  it('answers 100,000 levels of nesting 400 without a 500, and accepts 100 levels', async () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const body = good().replace(/}$/, `,"tools":[{"type":"function","function":{"name":"f","parameters":{"x":${deep(100_000)}}}}]}`);
    const reply = await send(style, body);
    expect(reply.status).toBe(400);
    if (style === 'openai') expect(codeOf(reply.body)).toBe('json_too_deep');
    expect(vendorCalls()).toBe(0);
    const fine = good().replace(/}$/, `,"metadata_extra":${deep(100)}}`);
    expect(codeOf((await send(style, fine)).body ?? {})).not.toBe('json_too_deep');
    expect(vendorCalls()).toBe(1);
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const body = good().replace(/}$/, `,"note":${JSON.stringify('"[\\'.repeat(500) + '{'.repeat(500))}}`);
    await send(style, body);
    expect(vendorCalls()).toBe(1);
  });
});

describe('required fields', () => {
  it('answers a generate-content body without contents 400 before any vendor call', async () => {
    const reply = await send('gemini', JSON.stringify({ generationConfig: {} }));
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toContain('contents');
    expect(vendorCalls()).toBe(0);
  });

  it('answers a messages body without max_tokens 400 naming it, as the official API does', async () => {
    const reply = await send('anthropic', JSON.stringify({ model: 'sim-anthropic-chat', messages: [{ role: 'user', content: 'hi' }] }));
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(reply.body.error.message).toContain('max_tokens');
    expect(vendorCalls()).toBe(0);
  });

  it('answers a chat body without messages 400 naming it', async () => {
    const reply = await send('openai', JSON.stringify({ model: 'sim-openai-chat' }));
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ param: 'messages' });
    expect(vendorCalls()).toBe(0);
  });
});

describe('isJsonContentType', () => {
  it('takes application/json and application/*+json with no charset or a UTF-8 one, and nothing else', () => {
    for (const yes of ['application/json', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', ' APPLICATION/JSON ', 'application/merge-patch+json']) {
      expect(isJsonContentType(yes)).toBe(true);
    }
    for (const no of [undefined, '', 'text/json', 'text/plain', 'application/jsonx', 'application/json; charset=iso-8859-1', 'json']) {
      expect(isJsonContentType(no)).toBe(false);
    }
  });
});
