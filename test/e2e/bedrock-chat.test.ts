/**
 * Bedrock Converse end to end: the official OpenAI, Anthropic and Google SDKs against the gateway, whose
 * `protocol: bedrock` vendors are the simulated Bedrock (which refuses any request whose SigV4 signature or
 * Bedrock API key it cannot verify). Model ids with `:` (SigV4 vendor) and an inference-profile ARN with
 * `/` (API-key vendor).
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { DRIVERS, gw, RESULT, useTranslationGateway } from './translation-drivers.ts';

useTranslationGateway();
beforeEach(() => gw.sims.bedrock.reset());

const TARGETS = [
  { model: 'bedrock-claude-sonnet-4', upstream: 'us.anthropic.claude-sonnet-4-20250514-v1:0', auth: /^AWS4-HMAC-SHA256 Credential=AKIAGATEWAYSIMULATOR\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/ },
  { model: 'bedrock-llama-3-3-70b', upstream: 'arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0', auth: /^Bearer sim-bedrock-secret-access-key$/ },
];
const CASES = DRIVERS.flatMap((driver) => TARGETS.map((target) => ({ driver, ...target, label: `${driver.sdk} -> ${target.model}` })));

/** The last Converse call the simulated Bedrock received (it answered it: the auth was verified). */
function readConverseCall() {
  const received = gw.sims.bedrock.received.at(-1)!;
  return { url: received.url, authorization: String(received.headers.authorization), body: JSON.parse(received.body.toString()) };
}

describe.each(CASES)('$label', ({ driver, model, upstream, auth }) => {
  const path = `/model/${encodeURIComponent(upstream)}`;

  test('non-stream: text, finish and usage reach the SDK; Bedrock got a verified Converse call', async () => {
    const event = gw.nextEvent();
    const answer = await driver.create(model, 'hello there');
    expect(answer).toMatchObject({ text: 'Echo: hello there', finish: driver.stop, input: 2, output: 3 });
    const call = readConverseCall();
    expect(call.url).toBe(`${path}/converse`);
    expect(call.authorization).toMatch(auth);
    expect(call.body.messages).toEqual([{ role: 'user', content: [{ text: 'hello there' }] }]);
    expect((await event).usage).toMatchObject({ inputTokens: 2, outputTokens: 3, totalTokens: 5 });
  });

  test('stream: the binary event stream becomes the SDK stream, usage included', async () => {
    const event = gw.nextEvent();
    const answer = await driver.stream(model, 'stream these four words');
    expect(answer).toMatchObject({ text: 'Echo: stream these four words', finish: driver.stop, input: 4, output: 5 });
    expect(answer.chunks).toBeGreaterThan(2);
    const call = readConverseCall();
    expect(call.url).toBe(`${path}/converse-stream`);
    expect(call.authorization).toMatch(auth);
    expect(gw.sims.bedrock.received.at(-1)!.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect((await event).usage).toMatchObject({ inputTokens: 4, outputTokens: 5, totalTokens: 9 });
  });

  test.each([false, true])('tool round trip (first turn streamed: %s): toolUse out, toolResult back to Bedrock', async (stream) => {
    const call = await driver.callTool(model, 'Paris', stream);
    expect(call.finish).toBe(driver.toolStop);
    expect(call.calls.map(({ name, args }) => ({ name, args }))).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    const first = readConverseCall();
    expect(first.url).toBe(`${path}/${stream ? 'converse-stream' : 'converse'}`);
    expect(first.body.toolConfig.tools[0].toolSpec).toMatchObject({ name: 'get_weather', inputSchema: { json: { type: 'object', required: ['city'] } } });
    const final = await call.answer(RESULT);
    expect(final).toEqual({ text: `Echo: ${JSON.stringify(RESULT)}`, finish: driver.stop });
    const second = readConverseCall();
    const use = second.body.messages[1].content.find((b: any) => b.toolUse).toolUse;
    const result = second.body.messages[2].content[0].toolResult;
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    expect(result.toolUseId).toBe(use.toolUseId);
    expect(JSON.parse(result.content[0].text)).toEqual(RESULT);
  });
});
