/**
 * The simulated Bedrock's reasoning, verified by the official AWS SDK: with Claude's `thinking` in
 * `additionalModelRequestFields`, Converse answers a `reasoningContent` block (text and signature) first
 * and ConverseStream streams it as `reasoningContent` deltas; a tool-result turn is accepted only when
 * the preceding tool-use turn carries that block unchanged (ValidationException 400 otherwise).
 */
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type ContentBlock, type ConverseStreamOutput, type Message } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BEDROCK_SIM_ACCESS_KEY_ID, startBedrockSimulator, type BedrockSimulator } from '../../../src/protocols/bedrock/simulator/index.ts';
import { signConverseThinking } from '../../../src/protocols/bedrock/simulator/plan-reply.ts';
import { signClaudeThinking } from '../../../src/protocols/anthropic/simulator/thinking.ts';

const SECRET = 'sim-secret-for-sdk-test';
const MODEL_ID = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const THINKING = { thinking: { type: 'enabled', budget_tokens: 1024 } };
const TOOL_CONFIG = {
  tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } }],
};
const QUESTION: Message = { role: 'user', content: [{ text: 'weather in Paris' }] };
let sim: BedrockSimulator;

const client = () => new BedrockRuntimeClient({
  region: 'us-east-1', endpoint: sim.url, credentials: { accessKeyId: BEDROCK_SIM_ACCESS_KEY_ID, secretAccessKey: SECRET }, requestHandler: new NodeHttpHandler(), maxAttempts: 1,
});

/** The tool turn after `assistant`, with thinking on. */
function answerTool(assistant: Message) {
  const use = assistant.content!.find((block) => block.toolUse)!.toolUse!;
  const result: Message = { role: 'user', content: [{ toolResult: { toolUseId: use.toolUseId, content: [{ text: 'sunny' }] } }] };
  return client().send(new ConverseCommand({ modelId: MODEL_ID, toolConfig: TOOL_CONFIG, additionalModelRequestFields: THINKING, inferenceConfig: { maxTokens: 4000 }, messages: [QUESTION, assistant, result] }));
}

beforeAll(async () => {
  sim = await startBedrockSimulator({ key: SECRET });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('Bedrock simulator reasoning through the AWS SDK', () => {
  it('Converse answers a signed reasoningContent block first; the SDK sends the turn back and the tool loop completes', async () => {
    const first = await client().send(new ConverseCommand({ modelId: MODEL_ID, toolConfig: TOOL_CONFIG, additionalModelRequestFields: THINKING, inferenceConfig: { maxTokens: 4000 }, messages: [QUESTION] }));
    const reasoning = first.output!.message!.content![0].reasoningContent!.reasoningText!;
    expect(reasoning).toEqual({ text: 'Thinking about: weather in Paris', signature: signConverseThinking('Thinking about: weather in Paris') });
    expect(first.stopReason).toBe('tool_use');
    const second = await answerTool(first.output!.message!);
    expect(second.output!.message!.content!.map((b) => b.text ?? '')).toContain('Echo: sunny');
    expect(JSON.parse(sim.received[1].body.toString()).messages[1].content[0]).toEqual({ reasoningContent: { reasoningText: reasoning } });
  });

  it('ConverseStream streams the reasoning text then its signature as reasoningContent deltas', async () => {
    const out = await client().send(new ConverseStreamCommand({ modelId: MODEL_ID, additionalModelRequestFields: THINKING, inferenceConfig: { maxTokens: 4000 }, messages: [{ role: 'user', content: [{ text: 'hello' }] }] }));
    const events: ConverseStreamOutput[] = [];
    for await (const event of out.stream!) events.push(event);
    const deltas = events.filter((e) => e.contentBlockDelta?.contentBlockIndex === 0).map((e) => e.contentBlockDelta!.delta!.reasoningContent!);
    expect(deltas.map((d) => d.text ?? '').join('')).toBe('Thinking about: hello');
    expect(deltas.at(-1)).toEqual({ signature: signConverseThinking('Thinking about: hello') });
    expect(events.filter((e) => e.contentBlockDelta?.contentBlockIndex === 1).map((e) => e.contentBlockDelta!.delta!.text).join('')).toBe('Echo: hello');
  });

  it.each<[string, (content: ContentBlock[]) => ContentBlock[]]>([
    ['without its reasoning block', (content) => content.filter((b) => !b.reasoningContent)],
    ['with a forged signature', (content) => content.map((b) => (b.reasoningContent ? { reasoningContent: { reasoningText: { text: 'Thinking about: weather in Paris', signature: 'forged' } } } : b))],
    ['with the messages vendor\'s signature', (content) => content.map((b) => (b.reasoningContent ? { reasoningContent: { reasoningText: { text: 'Thinking about: weather in Paris', signature: signClaudeThinking('Thinking about: weather in Paris') } } } : b))],
  ])('refuses a tool turn %s (ValidationException 400)', async (_name, change) => {
    const first = await client().send(new ConverseCommand({ modelId: MODEL_ID, toolConfig: TOOL_CONFIG, additionalModelRequestFields: THINKING, inferenceConfig: { maxTokens: 4000 }, messages: [QUESTION] }));
    const assistant = { role: 'assistant' as const, content: change(first.output!.message!.content!) };
    await expect(answerTool(assistant)).rejects.toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
  });

  it('flagged thinking comes back as redactedContent bytes, plain and streamed, and the SDK sends it back whole', async () => {
    const bytes = new Uint8Array(Buffer.from('sim-redacted:Thinking about: weather in Paris'));
    sim.redactNextThinking();
    const first = await client().send(new ConverseCommand({ modelId: MODEL_ID, toolConfig: TOOL_CONFIG, additionalModelRequestFields: THINKING, inferenceConfig: { maxTokens: 4000 }, messages: [QUESTION] }));
    expect(first.output!.message!.content![0].reasoningContent).toEqual({ redactedContent: bytes });
    expect((await answerTool(first.output!.message!)).stopReason).toBe('end_turn');
    sim.redactNextThinking();
    const out = await client().send(new ConverseStreamCommand({ modelId: MODEL_ID, additionalModelRequestFields: THINKING, inferenceConfig: { maxTokens: 4000 }, messages: [QUESTION] }));
    const deltas: unknown[] = [];
    for await (const event of out.stream!) if (event.contentBlockDelta?.delta?.reasoningContent) deltas.push(event.contentBlockDelta.delta.reasoningContent);
    expect(deltas).toEqual([{ redactedContent: bytes }]);
  });

  it('accepts a tool turn led by redacted reasoning, and refuses a budget under 1024', async () => {
    const first = await client().send(new ConverseCommand({ modelId: MODEL_ID, toolConfig: TOOL_CONFIG, messages: [QUESTION] }));
    const redacted: ContentBlock = { reasoningContent: { redactedContent: new Uint8Array([1, 2, 3]) } };
    const second = await answerTool({ role: 'assistant', content: [redacted, ...first.output!.message!.content!] });
    expect(second.stopReason).toBe('end_turn');
    expect(JSON.parse(sim.received[1].body.toString()).messages[1].content[0]).toEqual({ reasoningContent: { redactedContent: 'AQID' } });
    const small = client().send(new ConverseCommand({ modelId: MODEL_ID, additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 100 } }, messages: [QUESTION] }));
    await expect(small).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('budget_tokens') });
  });
});
