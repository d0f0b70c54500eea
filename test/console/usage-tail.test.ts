import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendChat } from '../helpers/send-chat.ts';
import { OPS_SECRET, TEAM_SECRET, startConsoleGateway, type ConsoleGateway } from '../helpers/start-console-gateway.ts';

const HOSTILE = '<img src=x onerror=alert(1)>';

/** The live tail of usage rows the console's requests page reads: NDJSON over a streamed response, never a body. */
let gw: ConsoleGateway;
beforeAll(async () => {
  // A model whose name is markup: the console must show it as text.
  gw = await startConsoleGateway({ configure: (config) => ({ ...config, models: { ...config.models, [HOSTILE]: { ...config.models['sim-openai-chat'], id: HOSTILE } } }) });
});
afterAll(() => gw.close());

/** Reads NDJSON lines from a streamed response until `done` says so. */
async function readLines(response: Response, done: (lines: any[]) => boolean): Promise<{ lines: any[]; text: string }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const lines = text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    if (done(lines)) {
      await reader.cancel();
      return { lines, text };
    }
    const { value, done: ended } = await reader.read();
    if (ended) throw new Error(`the tail ended:\n${text}`);
    text += value;
  }
}

describe('GET /admin/usage/tail', () => {
  it('streams each request as it ends: key, style, model, vendor, status, tokens, timings, cost; no body', async () => {
    const controller = new AbortController();
    const tail = await fetch(`${gw.adminUrl}/admin/usage/tail?backlog=0`, { headers: { authorization: `Bearer ${OPS_SECRET}` }, signal: controller.signal });
    expect(tail.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const reading = readLines(tail, (lines) => lines.some((line) => line.key === 'team'));
    const answer = await sendChat(gw.url, { style: 'anthropic', key: TEAM_SECRET, model: 'sim-openai-chat', prompt: 'a prompt only the vendor may see' });
    expect(answer.status).toBe(200);
    const { lines, text } = await reading;
    controller.abort();
    expect(lines[0]).toEqual({ open: true });
    expect(lines.find((line) => line.key === 'team')).toMatchObject({
      style: 'anthropic', model: 'sim-openai-chat', vendor: 'openai', status: 200,
      inputTokens: expect.any(Number), outputTokens: expect.any(Number), ttfbMs: expect.any(Number), durationMs: expect.any(Number),
    });
    expect(text).not.toContain('prompt only the vendor');
    expect(text).not.toContain('Echo');
    expect(text).not.toContain(TEAM_SECRET);
  });

  it('starts with the latest rows kept, for a page opened after the requests', async () => {
    expect((await sendChat(gw.url, { key: TEAM_SECRET, model: HOSTILE })).status).toBe(200);
    const tail = await fetch(`${gw.adminUrl}/admin/usage/tail`, { headers: { authorization: `Bearer ${OPS_SECRET}` } });
    const { lines } = await readLines(tail, (read) => read.some((line) => line.open));
    expect(lines.at(-2)).toMatchObject({ key: 'team', model: HOSTILE, status: 200 });
  });

  it('needs an admin key', async () => {
    const tail = await fetch(`${gw.adminUrl}/admin/usage/tail`, { headers: { authorization: `Bearer ${TEAM_SECRET}` } });
    expect(tail.status).toBe(401);
  });
});
