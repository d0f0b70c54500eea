/**
 * The simulated Bedrock's wire format and signature check, verified by the official AWS SDK
 * (`@aws-sdk/client-bedrock-runtime`, HTTP/1.1 handler): Converse and ConverseStream with tools, model ids
 * with `:` and an inference-profile ARN with `/`, and the refusals a wrong secret or key id gets.
 */
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BEDROCK_SIM_ACCESS_KEY_ID, startBedrockSimulator, type BedrockSimulator } from '../../../src/protocols/bedrock/simulator/index.ts';

const SECRET = 'sim-secret-for-sdk-test';
const MODEL_ID = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const PROFILE_ARN = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0';
let sim: BedrockSimulator;

function createClient(credentials = { accessKeyId: BEDROCK_SIM_ACCESS_KEY_ID, secretAccessKey: SECRET }): BedrockRuntimeClient {
  return new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, credentials, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
}

const TOOL_CONFIG = {
  tools: [{ toolSpec: { name: 'get_weather', description: 'Weather of a city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } }],
};

beforeAll(async () => {
  sim = await startBedrockSimulator({ key: SECRET });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('Bedrock simulator through the AWS SDK', () => {
  it.each([MODEL_ID, PROFILE_ARN])('answers Converse for %s, signature verified over the encoded path', async (modelId) => {
    const out = await createClient().send(new ConverseCommand({
      modelId,
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'hello there' }] }],
      inferenceConfig: { maxTokens: 50 },
    }));
    expect(out.output?.message?.content?.[0]?.text).toBe('Echo: hello there');
    expect(out.stopReason).toBe('end_turn');
    expect(out.usage).toMatchObject({ inputTokens: 4, outputTokens: 3, totalTokens: 7 });
    expect(sim.received[0].url).toBe(`/model/${encodeURIComponent(modelId)}/converse`);
    expect(String(sim.received[0].headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAGATEWAYSIMULATOR\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
  });

  it('answers Converse with tools: a toolUse, then the tool result read back', async () => {
    const client = createClient();
    const first = await client.send(new ConverseCommand({ modelId: MODEL_ID, toolConfig: TOOL_CONFIG, messages: [{ role: 'user', content: [{ text: 'weather in Paris' }] }] }));
    expect(first.stopReason).toBe('tool_use');
    const use = first.output!.message!.content!.find((block) => block.toolUse)!.toolUse!;
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'weather in Paris' } });
    const second = await client.send(new ConverseCommand({
      modelId: MODEL_ID,
      toolConfig: TOOL_CONFIG,
      messages: [
        { role: 'user', content: [{ text: 'weather in Paris' }] },
        first.output!.message!,
        { role: 'user', content: [{ toolResult: { toolUseId: use.toolUseId, content: [{ text: 'sunny' }] } }] },
      ],
    }));
    expect(second.output?.message?.content?.[0]?.text).toBe('Echo: sunny');
  });

  it('streams ConverseStream with text and tool use, ending with metadata usage', async () => {
    const out = await createClient().send(new ConverseStreamCommand({ modelId: PROFILE_ARN, toolConfig: TOOL_CONFIG, messages: [{ role: 'user', content: [{ text: 'weather in Oslo' }] }] }));
    const events: ConverseStreamOutput[] = [];
    for await (const event of out.stream!) events.push(event);
    const text = events.map((e) => e.contentBlockDelta?.delta?.text ?? '').join('');
    const input = events.map((e) => e.contentBlockDelta?.delta?.toolUse?.input ?? '').join('');
    expect(text).toBe('Calling get_weather.');
    expect(events.find((e) => e.contentBlockStart)?.contentBlockStart?.start?.toolUse?.name).toBe('get_weather');
    expect(JSON.parse(input)).toEqual({ city: 'weather in Oslo' });
    expect(events.find((e) => e.messageStop)?.messageStop?.stopReason).toBe('tool_use');
    expect(events.at(-1)?.metadata?.usage).toMatchObject({ inputTokens: 3, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 });
    expect(sim.received[0].url).toBe(`/model/${encodeURIComponent(PROFILE_ARN)}/converse-stream`);
  });

  it('raises an in-stream exception the SDK reads by name', async () => {
    sim.failStreamNext('throttlingException', 'Too many tokens, please wait.');
    const out = await createClient().send(new ConverseStreamCommand({ modelId: MODEL_ID, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }));
    const read = async () => {
      for await (const event of out.stream!) void event;
    };
    await expect(read()).rejects.toMatchObject({ name: 'ThrottlingException', message: 'Too many tokens, please wait.' });
  });

  it('refuses a request signed with another secret (InvalidSignatureException) or an unknown key id (UnrecognizedClientException)', async () => {
    const send = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
      createClient(credentials).send(new ConverseCommand({ modelId: MODEL_ID, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }));
    await expect(send({ accessKeyId: BEDROCK_SIM_ACCESS_KEY_ID, secretAccessKey: 'wrong' })).rejects.toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 403 } });
    await expect(send({ accessKeyId: 'AKIAOTHER', secretAccessKey: SECRET })).rejects.toMatchObject({ name: 'UnrecognizedClientException', $metadata: { httpStatusCode: 403 } });
  });

  it('answers a Bedrock ValidationException for a conversation not starting with a user turn', async () => {
    const send = createClient().send(new ConverseCommand({ modelId: MODEL_ID, messages: [{ role: 'assistant', content: [{ text: 'hi' }] }] }));
    await expect(send).rejects.toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
  });
});
