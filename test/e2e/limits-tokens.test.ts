import { describe, expect, it } from 'vitest';
import { STYLES, createLimitsClient, useLimitsGateway } from './limits-setup.ts';

const holder = useLimitsGateway();
const { chat, simOf, chatAndSettle } = createLimitsClient(holder);

describe('tokens per minute', () => {
  it("charges the vendor's reported usage after a response and refuses the next request once the limit is spent", async () => {
    const first = await chatAndSettle('tpm-json');
    expect(first.status).toBe(200);
    const used = first.json.usage.prompt_tokens + first.json.usage.completion_tokens;
    expect(used).toBeGreaterThanOrEqual(4);
    expect(holder.gw.events.at(-1)!.usage).toMatchObject({ inputTokens: first.json.usage.prompt_tokens, outputTokens: first.json.usage.completion_tokens });

    const refused = await chat('tpm-json');
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain('Rate limit reached for tokens: limit 4 per minute');
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('4');
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
    expect(holder.gw.sims.openai.received).toHaveLength(1);
  });

  it.each(STYLES)('charges the usage of a %s stream', async (style) => {
    const key = `tpm-${style}-stream`;
    const streamed = await chatAndSettle(key, { style, stream: true });
    expect(streamed.status).toBe(200);
    const usage = holder.gw.events.at(-1)!.usage;
    const tokens = usage.inputTokens! + usage.outputTokens!;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    const next = await chat(key, { style });
    expect(next.headers.get('x-ratelimit-remaining-tokens')).toBe(String(1000 - tokens));
    expect(simOf(style).received).toHaveLength(2);
  });

  it('asks an OpenAI stream for its usage and hides the extra usage chunk from a client that did not ask', async () => {
    const streamed = await chatAndSettle('tpm-openai-stream', { stream: true });
    const sent = JSON.parse(holder.gw.sims.openai.received[0].body.toString('utf8'));
    expect(sent.stream_options).toEqual({ include_usage: true });
    const chunks = streamed.text.split('\n\n').filter((event) => event.startsWith('data: {')).map((event) => JSON.parse(event.slice(6)));
    expect(chunks.length).toBeGreaterThan(1);
    // The vendor's usage-only chunk (no choices, usage set) is dropped; content chunks pass unchanged.
    expect(chunks.every((chunk) => chunk.choices.length === 1 && !chunk.usage)).toBe(true);
    expect(streamed.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(holder.gw.events.at(-1)!.usage.outputTokens).toBeGreaterThan(0);
  });
});
