/**
 * The reasoning tool loop against the Bedrock Converse protocol: each official SDK (chat-completions,
 * responses, messages, generate-content), plain and streamed, asks Claude on Bedrock with reasoning on;
 * the client sees the thinking, and the turn it sends back reaches Bedrock with the `reasoningContent`
 * block and the signature Bedrock made (the simulator refuses a tool turn without it, as Bedrock does).
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { signConverseThinking } from '../../src/protocols/bedrock/simulator/plan-reply.ts';
import { gw, useTranslationGateway } from './translation-drivers.ts';
import { LOOPS } from './reasoning-drivers.ts';

useTranslationGateway();
beforeEach(() => gw.sims.bedrock.reset());

const MODEL = 'bedrock-claude-sonnet-4';
const THOUGHT = 'Thinking about: What is the weather in Paris?';

/** The Converse bodies Bedrock received: the question, then the tool turn. */
function readBodies(): any[] {
  return gw.sims.bedrock.received.map((r) => JSON.parse(r.body.toString()));
}

describe.each(Object.keys(LOOPS))('%s client, bedrock vendor', (style) => {
  test.each([false, true])('stream %s: thinking shown, tool turn signed by Bedrock, loop completes', async (stream) => {
    const result = await LOOPS[style](MODEL, stream);
    expect(result.thinking).toContain(THOUGHT);
    expect(result.final).toContain('temp_c');
    const [first, second] = readBodies();
    expect(gw.sims.bedrock.received.map((r) => r.url.split('/').at(-1))).toEqual([stream ? 'converse-stream' : 'converse', 'converse']);
    expect(first.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(first.inferenceConfig.maxTokens).toBeGreaterThan(1024);
    const assistant = second.messages[1];
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toEqual({ reasoningContent: { reasoningText: { text: THOUGHT, signature: signConverseThinking(THOUGHT) } } });
    expect(assistant.content.filter((b: any) => b.toolUse).map((b: any) => b.toolUse.name)).toEqual(['get_weather']);
    expect(JSON.stringify(second)).not.toContain('gwr1.');
    expect(second.additionalModelRequestFields.thinking.type).toBe('enabled');
  });
});
