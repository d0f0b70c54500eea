/**
 * The passthrough's usage readers are the translation's: a passed-through answer is counted as the same
 * answer translated would be (Gemini tool-use prompt tokens in the input and thoughts in the output, Anthropic
 * cache reads and writes in the input), and a malformed count is no count.
 */
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { readAnthropicUsage } from '../../src/protocols/anthropic/translate/response.ts';
import { readGeminiUsage } from '../../src/protocols/gemini/translate/response.ts';

const geminiUsage = { promptTokenCount: 10, toolUsePromptTokenCount: 4, candidatesTokenCount: 6, thoughtsTokenCount: 3, totalTokenCount: 23, cachedContentTokenCount: 2 };
const anthropicUsage = { input_tokens: 5, cache_read_input_tokens: 7, cache_creation_input_tokens: 11, output_tokens: 9 };

describe('passthrough usage readers', () => {
  it('count a Gemini answer with tool-use prompt tokens and thoughts as the translation does', () => {
    expect(geminiAdapter.readUsage({ usageMetadata: geminiUsage })).toEqual(readGeminiUsage(geminiUsage));
    expect(geminiAdapter.readUsage({ usageMetadata: geminiUsage })).toMatchObject({ inputTokens: 14, outputTokens: 9, totalTokens: 23, cachedInputTokens: 2, reasoningTokens: 3 });
  });

  it('count an Anthropic message, message_start and message_delta as the translation does', () => {
    const counted = { inputTokens: 23, outputTokens: 9, cachedInputTokens: 7, cacheCreationInputTokens: 11 };
    expect(anthropicAdapter.readUsage({ usage: anthropicUsage })).toMatchObject(counted);
    expect(anthropicAdapter.readUsage({ type: 'message_start', message: { usage: anthropicUsage } })).toEqual(readAnthropicUsage(anthropicUsage));
    expect(anthropicAdapter.readUsage({ type: 'message_delta', usage: { output_tokens: 4 } })).toMatchObject({ inputTokens: undefined, outputTokens: 4 });
  });

  it('read no counts from a missing or malformed usage object', () => {
    expect(geminiAdapter.readUsage({})).toBeUndefined();
    expect(anthropicAdapter.readUsage({ usage: 'lots' })).toBeUndefined();
    expect(geminiAdapter.readUsage({ usageMetadata: { promptTokenCount: '12' } })).toMatchObject({ inputTokens: undefined });
  });
});
