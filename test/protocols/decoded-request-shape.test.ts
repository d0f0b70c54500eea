/**
 * The chat decoders (chat completions, messages) build the canonical request in one literal: a system
 * cache mark is set only when one was sent, and fields are still read (and refused) in the body's order.
 */
import { describe, expect, test } from 'vitest';
import { decodeAnthropicRequest } from '../../src/protocols/anthropic/translate/decode-request.ts';
import { decodeOpenAIChatRequest } from '../../src/protocols/openai/chat/decode-request.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';

const options = () => ({ policy: createFieldPolicy(false) });
const MARK = { type: 'ephemeral' };

/** The GatewayError message a decode throws (undefined when it does not). */
function readError(decode: () => unknown): string | undefined {
  try {
    decode();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

describe('decoded chat requests', () => {
  test('chat completions: the system cache mark is present only when the client marked the system text', () => {
    const plain = decodeOpenAIChatRequest({ model: 'm', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] }, options());
    expect('systemCacheControl' in plain).toBe(false);
    const marked = decodeOpenAIChatRequest(
      { model: 'm', messages: [{ role: 'system', content: [{ type: 'text', text: 's', cache_control: MARK }] }, { role: 'user', content: 'u' }], temperature: 0.5 },
      options(),
    );
    expect(marked).toMatchObject({ system: 's', systemCacheControl: MARK, temperature: 0.5 });
  });

  test('messages: the system cache mark is present only when the client marked a system block', () => {
    const plain = decodeAnthropicRequest({ model: 'm', max_tokens: 5, system: 's', messages: [{ role: 'user', content: 'u' }] }, options());
    expect('systemCacheControl' in plain).toBe(false);
    const marked = decodeAnthropicRequest({ model: 'm', max_tokens: 5, system: [{ type: 'text', text: 's', cache_control: MARK }], messages: [{ role: 'user', content: 'u' }] }, options());
    expect(marked).toMatchObject({ system: 's', systemCacheControl: MARK, maxTokens: 5 });
  });

  test('chat completions: of two bad fields, the one read first is refused (stop before temperature before seed)', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'u' }], stop: 5, temperature: 'hot', seed: 'x' };
    expect(readError(() => decodeOpenAIChatRequest(body, options()))).toMatch(/"stop"/);
    expect(readError(() => decodeOpenAIChatRequest({ ...body, stop: undefined }, options()))).toMatch(/"temperature"/);
    expect(readError(() => decodeOpenAIChatRequest({ ...body, stop: undefined, temperature: undefined }, options()))).toMatch(/"seed"/);
  });
});
