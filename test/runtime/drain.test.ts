import { afterEach, describe, expect, it } from 'vitest';
import { startPolicyGateway, type PolicyGateway } from '../helpers/start-policy-gateway.ts';

/** Opens a stream of `model` in `style` and resolves once its first bytes arrived, with the rest to come. */
async function openStream(gw: PolicyGateway, style: 'openai' | 'anthropic', model: string) {
  const openai = style === 'openai';
  const response = await fetch(`${gw.url}${openai ? '/v1/chat/completions' : '/v1/messages'}`, {
    method: 'POST',
    headers: openai
      ? { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' }
      : { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, max_tokens: 100, messages: [{ role: 'user', content: 'one two three four five six' }] }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { rest, id: response.headers.get('x-request-id') };
}

describe('the drain deadline', () => {
  let gw: PolicyGateway;
  afterEach(() => gw?.close());

  it('ends each stream still open with its style\'s in-stream 503 gateway_shutting_down, logged as the gateway\'s doing', async () => {
    gw = await startPolicyGateway({ slow: { streamEvents: 40, streamIntervalMs: 100 } });
    const slow = { ...gw.config.models['sim-openai-chat'], id: 'slow', targets: [{ vendor: 'openai-slow', upstream: 'slow', weight: 1 }] };
    gw.gateway.reload({ ...gw.config, models: { ...gw.config.models, slow } });
    const openai = await openStream(gw, 'openai', 'slow');
    const anthropic = await openStream(gw, 'anthropic', 'slow');
    const started = Date.now();
    await gw.gateway.close(300);
    // Well under the 4 s the streams would take (40 events 100 ms apart), with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(3000);

    const openaiText = await openai.rest;
    expect(openaiText).not.toContain('[DONE]');
    const lastOpenAi = JSON.parse(openaiText.trimEnd().split('\n\n').at(-1)!.slice('data: '.length));
    expect(lastOpenAi.error).toMatchObject({ code: 'gateway_shutting_down', type: 'server_error' });
    expect(lastOpenAi.error.message).toContain('shutting down');

    const anthropicText = await anthropic.rest;
    expect(anthropicText).not.toContain('message_stop');
    const lastEvent = anthropicText.trimEnd().split('\n\n').at(-1)!;
    expect(lastEvent.startsWith('event: error\ndata: ')).toBe(true);
    expect(JSON.parse(lastEvent.split('\ndata: ')[1]).error).toMatchObject({ type: 'api_error' });

    // Both reached the vendor once; the usage events blame the gateway (503), not the client (499).
    expect(gw.slowSim.received).toHaveLength(2);
    const events = gw.events.filter((event) => event.requestId === openai.id || event.requestId === anthropic.id);
    expect(events.map((event) => [event.status, event.error])).toEqual([
      [503, 'gateway_shutting_down'],
      [503, 'gateway_shutting_down'],
    ]);
  });

  it('leaves a request that finished before the deadline as it was', async () => {
    gw = await startPolicyGateway({ slow: { streamEvents: 3, streamIntervalMs: 50 } });
    const slow = { ...gw.config.models['sim-openai-chat'], id: 'slow', targets: [{ vendor: 'openai-slow', upstream: 'slow', weight: 1 }] };
    gw.gateway.reload({ ...gw.config, models: { ...gw.config.models, slow } });
    const stream = await openStream(gw, 'openai', 'slow');
    await gw.gateway.close(5000);
    const text = await stream.rest;
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(text).not.toContain('gateway_shutting_down');
    expect(gw.events.find((event) => event.requestId === stream.id)).toMatchObject({ status: 200 });
    expect(gw.events.find((event) => event.requestId === stream.id)?.error).toBeUndefined();
  });
});
