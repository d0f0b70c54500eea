import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { gw, MODEL, openai, PAIRS, readVendorTurn, RESULT, UPSTREAM, useTranslationGateway } from './translation-drivers.ts';

useTranslationGateway();

/** Each official SDK against each protocol's vendor: text, streams, tools, cut streams and vendor errors. */
describe.each(PAIRS)('$label', ({ driver, vendor }) => {
  const model = MODEL[vendor];

  test('non-stream: the SDK parses text, finish and usage; the vendor gets its own protocol and the upstream model', async () => {
    const event = gw.nextEvent();
    const answer = await driver.create(model, 'hello there');
    expect(answer).toMatchObject({ text: 'Echo: hello there', finish: driver.stop, input: 2, output: 3 });
    const turn = readVendorTurn(vendor);
    expect(turn).toMatchObject({ model: UPSTREAM[vendor], text: 'hello there', streamed: false });
    if (vendor === 'anthropic' && driver.sdk !== '@anthropic-ai/sdk') expect(turn.body.max_tokens).toBe(1024);
    expect((await event).usage).toMatchObject({ inputTokens: 2, outputTokens: 3, totalTokens: 5 });
  });

  test('stream: the SDK reads incremental text, finish and usage; the vendor was asked to stream', async () => {
    const event = gw.nextEvent();
    const answer = await driver.stream(model, 'stream these four words');
    expect(answer).toMatchObject({ text: 'Echo: stream these four words', finish: driver.stop, input: 4, output: 5 });
    expect(answer.chunks).toBeGreaterThan(2);
    expect(readVendorTurn(vendor)).toMatchObject({ model: UPSTREAM[vendor], text: 'stream these four words', streamed: true });
    expect((await event).usage).toMatchObject({ inputTokens: 4, outputTokens: 5, totalTokens: 9 });
  });

  test.each([false, true])('tool round trip (first turn streamed: %s): call name and arguments, then the tool result reaches the vendor', async (stream) => {
    const call = await driver.callTool(model, 'Paris', stream);
    expect(call.finish).toBe(driver.toolStop);
    expect(call.calls.map(({ name, args }) => ({ name, args }))).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(readVendorTurn(vendor).streamed).toBe(stream);
    const final = await call.answer(RESULT);
    expect(final).toEqual({ text: `Echo: ${JSON.stringify(RESULT)}`, finish: driver.stop });
    const turn = readVendorTurn(vendor);
    if (vendor === 'gemini') expect(turn.toolResults).toEqual([{ name: 'get_weather', value: RESULT }]);
    else expect(turn.toolResults).toEqual([{ id: call.calls[0].id, value: RESULT }]);
  });

  test.each([2, 5])('a vendor stream cut after %i events makes the SDK raise instead of ending quietly', async (afterEvents) => {
    gw.sims[vendor].failNext({ kind: 'reset-mid-stream', afterEvents });
    const error: any = await driver.stream(model, 'this stream will be cut before its last words arrive').catch((e: unknown) => e);
    // The same cut has one code on the passthrough path and another on the translated one (reported).
    const passthrough = driver.sdk.includes(vendor === 'gemini' ? 'google' : vendor);
    const [code, message] = passthrough
      ? ['upstream_stream_failed', 'The vendor stream ended with an error.']
      : ['upstream_stream_failed', 'The vendor stream broke off before the answer was complete.'];
    if (driver.sdk === 'openai') {
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error.error).toEqual({ message, type: 'server_error', param: null, code });
    } else if (driver.sdk === '@anthropic-ai/sdk') {
      expect(error).toBeInstanceOf(Anthropic.APIError);
      expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error', message } });
    } else {
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(502);
      expect(error.message).toContain(JSON.stringify({ error: { code: 502, message, status: 'UNAVAILABLE' } }));
    }
  });

  test('a rate-limited vendor answer reaches the SDK as a 429 in its own error shape', async () => {
    gw.sims[vendor].failNext({ kind: 'status', status: 429 });
    await expect(driver.create(model, 'too many')).rejects.toMatchObject({ status: 429 });
  });
});
