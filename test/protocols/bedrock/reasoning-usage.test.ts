/**
 * Bedrock's reasoning in usage: Converse's TokenUsage has no reasoning count (inputTokens, outputTokens,
 * totalTokens and the cache counts only), so no style is told a reasoning count from Bedrock, and each
 * style's numbers still add up the way it defines them, the thinking inside the output count.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { bedrockChat } from '../../../src/protocols/bedrock/index.ts';
import { anthropicChat } from '../../../src/protocols/anthropic/translate/index.ts';
import { geminiChat } from '../../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../../src/protocols/openai/chat/index.ts';
import { responsesAdapter } from '../../../src/protocols/openai/responses/index.ts';
import { createRequest, META } from '../../translate/fixtures.ts';

const answer = (input: number, output: number) => ({
  output: { message: { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: 'Thinking about it', signature: 'SIG' } } }, { text: 'Sunny.' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
});

test('a reasoning answer\'s usage adds up in every style, with no reasoning count claimed', () => {
  fc.assert(fc.property(fc.nat(100000), fc.nat(100000), (input, output) => {
    const decoded = bedrockChat.decodeResponse(answer(input, output));
    expect(decoded.usage.reasoningTokens).toBeUndefined();
    const request = createRequest({ stream: false });
    const chat = (openAIChatAdapter.encodeResponse(decoded, META, request) as any).usage;
    expect(chat).toMatchObject({ prompt_tokens: input, completion_tokens: output, total_tokens: input + output, completion_tokens_details: { reasoning_tokens: 0 } });
    const responses = (responsesAdapter.encodeResponse(decoded, META, request) as any).usage;
    expect(responses).toMatchObject({ input_tokens: input, output_tokens: output, total_tokens: input + output, output_tokens_details: { reasoning_tokens: 0 } });
    const gemini = (geminiChat.encodeResponse(decoded, META, request) as any).usageMetadata;
    expect(gemini.promptTokenCount + gemini.candidatesTokenCount + (gemini.thoughtsTokenCount ?? 0)).toBe(gemini.totalTokenCount);
    expect(gemini.thoughtsTokenCount).toBeUndefined();
    const messages = (anthropicChat.encodeResponse(decoded, META, request) as any).usage;
    expect(messages).toMatchObject({ input_tokens: input, output_tokens: output });
    expect(messages.output_tokens_details).toBeUndefined();
  }));
});
