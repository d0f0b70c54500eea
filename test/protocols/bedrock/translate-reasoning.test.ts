/**
 * Reasoning on the Converse protocol: the request's `thinking` (Claude models only, budget fitted below
 * `maxTokens`, strict 400s), assistant reasoning sent back as `reasoningContent` blocks, and
 * `reasoningContent` read from answers and event streams, with fuzzed vendor shapes.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bedrockChat } from '../../../src/protocols/bedrock/index.ts';
import { createConverseStream, encodeStreamMessage } from '../../../src/protocols/bedrock/simulator/write-converse.ts';
import type { CanonicalMessage, CanonicalRequest, StreamEvent } from '../../../src/translate/canonical.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';

const CLAUDE = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const USER: CanonicalMessage = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
const CALL = { type: 'tool_call' as const, id: 't1', name: 'f', arguments: '{}' };
const RESULT: CanonicalMessage = { role: 'user', content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'ok' }] }] };

function encode(request: Partial<CanonicalRequest>, model = CLAUDE, strict = false, reasoningShape?: string) {
  const policy = createFieldPolicy(strict, { reasoning: 'reasoning_effort' });
  const options = { model, policy, defaultMaxTokens: 4096, fieldNames: { reasoning: 'reasoning_effort' }, reasoningShape };
  const call = bedrockChat.encodeRequest({ messages: [USER], stream: false, includeUsage: false, ...request }, options);
  return { body: call.body as Record<string, any>, dropped: policy.dropped };
}

describe('canonical reasoning -> Converse request', () => {
  test.each([
    ['an effort, no output limit: the effort budget, the model default limit', { reasoning: { enabled: true, effort: 'low' } }, 1024, 4096],
    ['a budget within the limit', { reasoning: { enabled: true, budgetTokens: 2000 }, maxTokens: 3000 }, 2000, 3000],
    ['a budget under 1024 is raised', { reasoning: { enabled: true, budgetTokens: 10 }, maxTokens: 3000 }, 1024, 3000],
    ['a budget over the limit is lowered below it', { reasoning: { enabled: true, budgetTokens: 9000 }, maxTokens: 3000 }, 2999, 3000],
  ] as const)('%s', (_name, fields, budget, maxTokens) => {
    const { body } = encode(fields as Partial<CanonicalRequest>);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: budget } });
    expect(body.inferenceConfig.maxTokens).toBe(maxTokens);
  });

  test('the YAML\'s reasoning shape overrides the id: an application inference profile takes thinking, a Claude id declared none does not', () => {
    const profile = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3';
    const reasoning = { enabled: true, effort: 'low' } as const;
    expect(encode({ reasoning }, profile).dropped).toEqual(['reasoning_effort']);
    const declared = encode({ reasoning }, profile, false, 'claude-thinking');
    expect(declared.body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(declared.dropped).toEqual([]);
    const off = encode({ reasoning }, CLAUDE, false, 'none');
    expect(off.body.additionalModelRequestFields).toBeUndefined();
    expect(off.dropped).toEqual(['reasoning_effort']);
  });

  test('a model declared nova-reasoning gets reasoningConfig with the effort (a budget mapped to one), no thinking', () => {
    const nova = 'us.amazon.nova-2-lite-v1:0';
    expect(encode({ reasoning: { enabled: true, effort: 'high' } }, nova, false, 'nova-reasoning').body.additionalModelRequestFields).toEqual({ reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' } });
    const budget = encode({ reasoning: { enabled: true, budgetTokens: 2000 }, temperature: 0.3 }, nova, false, 'nova-reasoning');
    expect(budget.body.additionalModelRequestFields).toEqual({ reasoningConfig: { type: 'enabled', maxReasoningEffort: 'medium' } });
    expect(budget.dropped).toEqual([]);
    expect(encode({ reasoning: { enabled: false } }, nova, false, 'nova-reasoning').body.additionalModelRequestFields).toBeUndefined();
    expect(encode({ reasoning: { enabled: true, effort: 'low' } }, nova).dropped).toEqual(['reasoning_effort']);
  });

  test('temperature is dropped with thinking on; reasoning off sends nothing', () => {
    const on = encode({ reasoning: { enabled: true, effort: 'medium' }, temperature: 0.3, topP: 0.96 });
    expect(on.body.inferenceConfig).toEqual({ maxTokens: 4096, topP: 0.96 });
    expect(on.dropped).toEqual(['temperature']);
    const off = encode({ reasoning: { enabled: false }, temperature: 0.3 });
    expect(off.body.additionalModelRequestFields).toBeUndefined();
    expect(off.body.inferenceConfig).toEqual({ temperature: 0.3 });
  });

  test('a budget the model cannot take is a 400 naming the client field under strict', () => {
    expect(() => encode({ reasoning: { enabled: true, budgetTokens: 5000 }, maxTokens: 2000 }, CLAUDE, true))
      .toThrow(expect.objectContaining({ status: 400, code: 'parameter_out_of_range', param: 'reasoning_effort' }));
  });

  test('a model that is not Claude gets no thinking: reasoning is dropped (a 400 under strict)', () => {
    const { body, dropped } = encode({ reasoning: { enabled: true, effort: 'high' } }, 'meta.llama3-3-70b-instruct-v1:0');
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(dropped).toEqual(['reasoning_effort']);
    expect(() => encode({ reasoning: { enabled: true, effort: 'high' } }, 'amazon.nova-pro-v1:0', true)).toThrow(expect.objectContaining({ status: 400, code: 'untranslatable_field' }));
  });

  test('assistant reasoning goes back as reasoningContent blocks in order; unsigned reasoning is left out', () => {
    const { body } = encode({
      messages: [USER, { role: 'assistant', content: [
        { type: 'reasoning', text: 'think', signature: 'SIG' }, { type: 'reasoning', text: '', redacted: 'AQID' }, { type: 'reasoning', text: 'loose' }, { type: 'text', text: 'x' }, CALL,
      ] }, RESULT],
      tools: [{ name: 'f', parameters: {} }],
      reasoning: { enabled: true, effort: 'low' },
    });
    expect(body.messages[1].content).toEqual([
      { reasoningContent: { reasoningText: { text: 'think', signature: 'SIG' } } },
      { reasoningContent: { redactedContent: 'AQID' } },
      { text: 'x' },
      { toolUse: { toolUseId: 't1', name: 'f', input: {} } },
    ]);
    expect(body.additionalModelRequestFields.thinking.type).toBe('enabled');
  });

  test('a tool turn without signed reasoning (stripped for another target) gets thinking left off, reported', () => {
    const { body, dropped } = encode({ messages: [USER, { role: 'assistant', content: [{ type: 'reasoning', text: 'loose' }, CALL] }, RESULT], tools: [{ name: 'f', parameters: {} }], reasoning: { enabled: true, effort: 'low' } });
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(dropped).toEqual(['reasoning_effort']);
  });
});

describe('Converse reasoning -> canonical', () => {
  test('reasoningText with its signature and redactedContent become reasoning parts', () => {
    const content = [{ reasoningContent: { reasoningText: { text: 'think', signature: 'SIG' } } }, { reasoningContent: { redactedContent: 'AQID' } }, { reasoningContent: { reasoningText: { text: 'bare' } } }, { text: 'a' }];
    expect(bedrockChat.decodeResponse({ output: { message: { content } }, stopReason: 'end_turn', usage: {} }).content).toEqual([
      { type: 'reasoning', text: 'think', signature: 'SIG' }, { type: 'reasoning', text: '', redacted: 'AQID' }, { type: 'reasoning', text: 'bare' }, { type: 'text', text: 'a' },
    ]);
  });

  test.each([1, 9, 100_000])('the event stream read %i bytes at a time: thinking text, its signature, redacted content, then text', (size) => {
    const reply = { text: 'Hi', tools: [], stopReason: 'end_turn' as const, inputTokens: 1, outputTokens: 5, cacheRead: 0, cacheWrite: 0, thinking: { text: 'Thinking about: hi there', signature: 'SIG', tokens: 4 } };
    const [start, ...rest] = createConverseStream(reply);
    const redacted = encodeStreamMessage('contentBlockDelta', { contentBlockIndex: 5, delta: { reasoningContent: { redactedContent: 'AQID' } } });
    const events = decodeBytes(Buffer.concat([start, redacted, ...rest]), size).filter((e) => e.type.startsWith('reasoning') || e.type === 'text');
    expect(events[0]).toEqual({ type: 'reasoning_redacted', data: 'AQID' });
    expect(events.filter((e) => e.type === 'reasoning').map((e: any) => e.text).join('')).toBe('Thinking about: hi there');
    expect(events.slice(-2)).toEqual([{ type: 'reasoning_signature', signature: 'SIG' }, { type: 'text', text: 'Hi' }]);
  });

  test('fuzz: any reasoningContent shape decodes without throwing, to string fields only', () => {
    fc.assert(fc.property(fc.anything(), (value) => {
      const parts = bedrockChat.decodeResponse({ output: { message: { content: [{ reasoningContent: value }] } } }).content;
      for (const part of parts) for (const field of Object.values(part)) expect(typeof field).toBe('string');
      const events = bedrockChat.createStreamDecoder().decode({ event: 'contentBlockDelta', data: JSON.stringify({ contentBlockIndex: 0, delta: { reasoningContent: value } }) ?? 'null' });
      for (const event of events) expect(['reasoning', 'reasoning_signature', 'reasoning_redacted']).toContain(event.type);
    }));
  });

  test('fuzz: signed reasoning sent back reads as the same part', () => {
    fc.assert(fc.property(fc.string(), fc.string({ minLength: 1 }), (text, signature) => {
      const { body } = encode({ messages: [USER, { role: 'assistant', content: [{ type: 'reasoning', text, signature }] }] });
      expect(bedrockChat.decodeResponse({ output: { message: body.messages[1] } }).content).toEqual([{ type: 'reasoning', text, signature }]);
    }));
  });
});

function decodeBytes(bytes: Buffer, size: number): StreamEvent[] {
  const decoder = bedrockChat.createStreamDecoder();
  const events: StreamEvent[] = [];
  const parser = bedrockChat.createStreamParser!((event) => events.push(...decoder.decode(event)));
  for (let i = 0; i < bytes.length; i += size) parser.feed(bytes.subarray(i, i + size));
  parser.end();
  return events;
}
