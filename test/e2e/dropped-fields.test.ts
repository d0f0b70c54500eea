/**
 * Unknown fields of a translated request with names no header can hold (non-Latin-1, CR/LF), names a
 * lookup table could take for its own (`constructor`), or too many of them: the client gets the vendor's answer (200) with a valid, bounded `x-gateway-dropped-fields`
 * header, whole or streamed, and the vendor was called exactly once.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.anthropic.reset());

/** The content of a chat-completions SSE stream, joined. */
function readStreamedText(sse: string): string {
  expect(sse.trimEnd().endsWith('data: [DONE]')).toBe(true);
  const chunks = sse.split('\n\n').filter((event) => event.startsWith('data: {')).map((event) => JSON.parse(event.slice(6)));
  return chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
}

const MANY = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`unknown_field_${i}`, i + 1]));
const CASES: Array<[string, Record<string, unknown>, (header: string) => void]> = [
  ['a non-Latin-1 name', { 温度: 1 }, (header) => expect(header).toBe('%E6%B8%A9%E5%BA%A6')],
  ['a name with CR/LF', { 'a\r\nx-injected: 1': 1 }, (header) => expect(header).toBe('a%0D%0Ax-injected:%201')],
  ['the names Object.prototype has', { constructor: 1, toString: 2, hasOwnProperty: 3 }, (header) => expect(header).toBe('constructor, toString, hasOwnProperty')],
  ['5,000 names', MANY, (header) => {
    expect(header.length).toBeLessThanOrEqual(2048);
    expect(header).toMatch(/^unknown_field_0, unknown_field_1, .*, \+\d+ more$/);
  }],
];

describe('x-gateway-dropped-fields', () => {
  it.each(CASES)('is valid and bounded for %s, whole and streamed (raw fetch)', async (_, extra, check) => {
    for (const stream of [false, true]) {
      gw.sims.anthropic.reset();
      const response = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-anthropic-chat', stream, messages: [{ role: 'user', content: 'hi' }], ...extra }),
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-injected')).toBeNull();
      check(response.headers.get('x-gateway-dropped-fields')!);
      if (stream) expect(readStreamedText(text)).toBe('Echo: hi');
      else expect(JSON.parse(text).choices[0].message.content).toBe('Echo: hi');
      expect(gw.sims.anthropic.received).toHaveLength(1);
      const sent = JSON.parse(gw.sims.anthropic.received[0].body.toString());
      expect(Object.keys(sent)).not.toContain(Object.keys(extra)[0]);
    }
  });

  it('reaches the OpenAI SDK with the 温度 field, whole and streamed', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const body = { model: 'sim-anthropic-chat', messages: [{ role: 'user' as const, content: 'hi' }], 温度: 1 };
    const { data, response } = await openai.chat.completions.create(body).withResponse();
    expect(data.choices[0].message.content).toBe('Echo: hi');
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('%E6%B8%A9%E5%BA%A6');
    let text = '';
    for await (const chunk of await openai.chat.completions.create({ ...body, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Echo: hi');
    expect(gw.sims.anthropic.received).toHaveLength(2);
  });
});
