import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendRawBytes } from '../helpers/send-raw-bytes.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/**
 * DELETE routes take no body. One sent chunked (legal HTTP) is drained and the connection serves on; one
 * sent with neither content-length nor chunked framing is, for HTTP, the start of a next request: the
 * DELETE is still answered as its route does (not 400), then the connection closes.
 */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

async function createVideo(): Promise<string> {
  const created = await fetch(`${gw.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sora-2', prompt: 'x' }) });
  return ((await created.json()) as { id: string }).id;
}

const head = (path: string, extra = '') => `DELETE ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.key}\r\ncontent-type: application/json\r\n${extra}\r\n`;
const answers = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

describe('a DELETE with a body', () => {
  it('sent chunked: answered by its route, the body drained, the next request on the connection served', async () => {
    const id = await createVideo();
    gw.sims.openai.reset();
    const text = await sendRawBytes(gw.url, `${head(`/v1/videos/${id}`, 'transfer-encoding: chunked\r\n')}7\r\n{"x":1}\r\n0\r\n\r\nGET /v1/models HTTP/1.1\r\nhost: x\r\nconnection: close\r\nauthorization: Bearer ${gw.key}\r\n\r\n`, { end: false });
    expect(answers(text)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(text).toContain('"object":"video.deleted"');
    expect(text).toContain('"object":"list"');
    expect(gw.sims.openai.received.map((r) => [r.method, r.url, r.body.length])).toEqual([['DELETE', expect.stringMatching(/^\/v1\/videos\/video_sim\d+$/), 0]]);
  });

  it('sent with no content-length nor chunked framing: answered by its route, not 400, then the connection closes', async () => {
    const id = await createVideo();
    gw.sims.openai.reset();
    const text = await sendRawBytes(gw.url, `${head(`/v1/videos/${id}`)}{"x":1}`, { end: false });
    expect(answers(text)).toEqual(['HTTP/1.1 200']);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).toContain('"deleted":true');
    expect(text).not.toContain('malformed_request');
    expect(gw.sims.openai.received.map((r) => [r.method, r.url])).toEqual([['DELETE', expect.stringMatching(/^\/v1\/videos\/video_sim\d+$/)]]);
  });

  it('any unframed body after a DELETE leaves the route its own answer, once, never a 400 or 5xx (property-based)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 60 }).map((tail) => `{${tail}`), async (body) => {
        const text = await sendRawBytes(gw.url, `${head('/v1/responses/resp_unknown')}${body}`, { end: false });
        expect(answers(text)).toEqual(['HTTP/1.1 404']);
        expect(text).toContain('response_not_found');
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
