import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendChat } from '../helpers/send-chat.ts';
import { TEAM_SECRET, startConsoleGateway, type ConsoleGateway } from '../helpers/start-console-gateway.ts';

/** The keys page's live usage and the overview (with its latest rows), read from the feed the gateway's requests are counted in. */
let gw: ConsoleGateway;
beforeAll(async () => {
  gw = await startConsoleGateway();
});
afterAll(() => gw.close());

describe('GET /admin/keys and /admin/overview after requests', () => {
  it("show the key's requests and tokens of the last minute, and the overview counts them per style and per model", async () => {
    const before = gw.sims.openai.received.length;
    let tokens = 0;
    for (const style of ['openai', 'openai', 'anthropic'] as const) {
      const answer = await sendChat(gw.url, { style, key: TEAM_SECRET, model: 'sim-openai-chat' });
      expect(answer.status).toBe(200);
      const usage = answer.json.usage;
      tokens += style === 'openai' ? usage.prompt_tokens + usage.completion_tokens : usage.input_tokens + usage.output_tokens;
    }
    expect(gw.sims.openai.received.length - before).toBe(3);
    expect(tokens).toBeGreaterThan(0);
    const keys = await gw.callAdmin('/admin/keys');
    expect(keys.json.keys.find((key: any) => key.name === 'team').usage).toEqual({ requestsLastMinute: 3, tokensLastMinute: tokens, spendLastHourUsd: expect.any(Number) });
    expect(keys.json.keys.find((key: any) => key.name === 'ops').usage.requestsLastMinute).toBe(0);
    const overview = (await gw.callAdmin('/admin/overview')).json;
    expect(overview.total.summary.requests).toBe(3);
    expect(overview.byStyle.openai.summary.requests).toBe(2);
    expect(overview.byStyle.anthropic.summary.requests).toBe(1);
    expect(overview.byModel['sim-openai-chat'].summary).toMatchObject({ requests: 3, errorRate: 0, tokensPerMinute: tokens / 60 });
    expect(overview.total.series.requestsPerSecond.reduce((sum: number, perSecond: number) => sum + perSecond, 0) * 60).toBeCloseTo(3);
    expect(overview.total.summary.p95LatencyMs).toBeGreaterThan(0);
    expect(overview.recent.map((row: any) => [row.key, row.style, row.model, row.status])).toEqual([
      ['team', 'openai', 'sim-openai-chat', 200],
      ['team', 'openai', 'sim-openai-chat', 200],
      ['team', 'anthropic', 'sim-openai-chat', 200],
    ]);
    expect(overview.instances).toEqual([]);
  });

  it('answers 404 instance_not_found for an instance that does not share the store (here none does: memory store)', async () => {
    const answer = await gw.callAdmin('/admin/overview?instance=other-host%2F1');
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('instance_not_found');
  });
});
