/**
 * Lookups by a client's or a vendor's string never find Object.prototype's members (src/lib/read-own.ts):
 * `constructor`, `toString` and the like are unknown names wherever a table is looked up, as `wizard` is.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { readOwn } from '../../src/lib/read-own.ts';
import { decodeAnthropicError, readAnthropicStop } from '../../src/protocols/anthropic/translate/response.ts';
import { decodeConverseError } from '../../src/protocols/bedrock/decode-error.ts';
import { readConverseStop } from '../../src/protocols/bedrock/read-converse.ts';
import { readOpenAIFinish } from '../../src/protocols/openai/chat/response.ts';
import { toGeminiSchema } from '../../src/protocols/gemini/translate/schema.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';
import { readReasoningEffort } from '../../src/translate/reasoning-budget.ts';

const NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

describe('lookups by a name from outside', () => {
  it('find a table\'s own entries and nothing Object.prototype has', () => {
    const table = { stop: 'STOP' };
    expect(readOwn(table, 'stop')).toBe('STOP');
    for (const name of NAMES) expect(readOwn(table, name)).toBeUndefined();
  });

  it.each(NAMES)('refuse %s as a reasoning effort, as any unknown effort', (name) => {
    expect(() => readReasoningEffort(name, 'reasoning_effort')).toThrow(GatewayError);
    expect(() => readReasoningEffort('wizard', 'reasoning_effort')).toThrow(GatewayError);
  });

  it.each(NAMES)('list a body field named %s as dropped under its own name', (name) => {
    const policy = createFieldPolicy(false, { topK: 'top_k' });
    policy.drop(name);
    policy.ignore('topK');
    expect(policy.dropped).toEqual([name, 'top_k']);
  });

  it.each(NAMES)('read a vendor stop or finish reason %s as other', (name) => {
    expect([readAnthropicStop(name), readOpenAIFinish(name), readConverseStop(name)]).toEqual(['other', 'other', 'other']);
  });

  it.each(NAMES)('give a vendor error of type %s in a stream the status of an unknown type', (name) => {
    expect(decodeAnthropicError(0, { type: 'error', error: { type: name, message: 'm' } }).status).toBe(500);
    expect(decodeConverseError(0, {}, { 'x-amzn-errortype': name }).status).toBe(decodeConverseError(0, {}, { 'x-amzn-errortype': 'Wizard' }).status);
  });

  it('write a string enum of odd values for generate-content as text (an object whose toString is null included)', () => {
    const values = JSON.parse('[1, true, {"toString": null}, "a"]');
    expect(toGeminiSchema({ type: 'string', enum: values })).toEqual({ type: 'STRING', enum: ['1', 'true', '{"toString":null}', 'a'] });
  });
});
