/**
 * The passthrough's usage readers are the translation's: a passed-through answer is counted as the same
 * answer translated would be (Gemini tool-use prompt tokens in the input and thoughts in the output, Anthropic
 * cache reads and writes in the input), and a malformed count is no count, whatever JSON a vendor puts there.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../src/protocols/index.ts';
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

  it('read no count from an object where a count belongs, even one JSON.parse gave a null toString', () => {
    const hostile = JSON.parse('{"toString":null,"valueOf":null}');
    for (const adapter of Object.values(PROTOCOLS)) {
      for (const name of ['prompt_tokens', 'input_tokens', 'inputTokens', 'promptTokenCount', 'total_tokens', 'output_tokens']) {
        expect(() => adapter.readUsage({ usage: { [name]: hostile }, usageMetadata: { [name]: hostile } })).not.toThrow();
      }
    }
    expect(PROTOCOLS.openai.readUsage({ usage: { prompt_tokens: hostile, completion_tokens: 3 } })).toMatchObject({ inputTokens: undefined, outputTokens: 3 });
    expect(PROTOCOLS.dashscope.readUsage({ usage: { input_tokens: hostile, output_tokens: 2 } })).toEqual({ inputTokens: undefined, outputTokens: 2, totalTokens: 2 });
  });

  it('never throw, and give finite numbers or nothing, for any JSON in any place a protocol reads usage from', () => {
    const counts = fc.dictionary(fc.constantFrom('prompt_tokens', 'completion_tokens', 'total_tokens', 'input_tokens', 'output_tokens', 'type', 'seconds', 'prompt_tokens_details', 'inputTokens', 'promptTokenCount', 'candidatesTokenCount', 'cache_read_input_tokens', 'toString', 'valueOf'), fc.jsonValue());
    const usage = fc.oneof(fc.jsonValue(), counts, counts.map((value) => ({ ...value, type: 'duration' })));
    const answer = fc.tuple(fc.constantFrom('usage', 'usageMetadata', 'response', 'message'), usage).map(([name, value]) =>
      // Through JSON text, as a vendor's bytes arrive: keys such as toString become own properties.
      JSON.parse(JSON.stringify(name === 'response' || name === 'message' ? { [name]: { usage: value } } : { [name]: value })),
    );
    fc.assert(
      fc.property(answer, fc.constantFrom(...Object.values(PROTOCOLS)), (json, adapter) => {
        const read = adapter.readUsage(json);
        for (const value of Object.values(read ?? {})) if (value !== undefined) expect(Number.isFinite(value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
