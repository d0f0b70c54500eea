import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClaudeBlock, ClaudeChat } from '../../src/simulators/claude-chat.ts';
import { findThinkingProblem } from '../../src/simulators/find-thinking-problem.ts';
import { countClaudeInput, planClaudeReply } from '../../src/simulators/plan-claude-reply.ts';

const sign = (text: string) => `signed:${text}`;
const THINKING = { type: 'enabled', budget_tokens: 1024 };

function chatOf(parts: Partial<ClaudeChat>): ClaudeChat {
  return { system: '', turns: [{ role: 'user', blocks: [{ kind: 'text', text: 'weather in Paris' }] }], tools: [], choice: { type: 'auto' }, maxTokens: 100, thinking: undefined, ...parts };
}

/** A tool loop whose assistant turn starts with `first`. */
function toolLoop(first: ClaudeBlock): ClaudeChat {
  return chatOf({
    thinking: THINKING,
    maxTokens: 2048,
    turns: [
      { role: 'user', blocks: [{ kind: 'text', text: 'weather?' }] },
      { role: 'assistant', blocks: [first, { kind: 'tool-call' }] },
      { role: 'user', blocks: [{ kind: 'tool-result', text: 'sunny' }] },
    ],
  });
}

describe('the simulated Claude model (protocol-free)', () => {
  it('echoes the last turn, counts words of system and turns, and cuts at maxTokens', () => {
    const reply = planClaudeReply(chatOf({ system: 'be brief', maxTokens: 2 }), () => 'id', sign);
    expect(reply).toEqual({ text: 'Echo: weather', tools: [], stopReason: 'max_tokens', inputTokens: 5, outputTokens: 2, cacheRead: 0, cacheWrite: 0 });
  });

  it.each([
    [{ type: 'auto' }, ['a', 'b'], 'Calling a, b.'],
    [{ type: 'any' }, ['a', 'b'], undefined],
    [{ type: 'tool', name: 'b' }, ['b'], undefined],
    [{ type: 'auto', oneCall: true }, ['a'], 'Calling a.'],
  ])('with tools and choice %j calls %j', (choice, names, text) => {
    const tools = [{ name: 'a', schema: { type: 'object', properties: { q: { type: 'string' } } } }, { name: 'b', schema: {} }, { name: 'c', schema: 'no schema' }];
    let n = 0;
    const reply = planClaudeReply(chatOf({ tools, choice }), () => `call_${++n}`, sign);
    expect(reply.tools.map((tool) => tool.name)).toEqual(names);
    expect(reply.text).toBe(text);
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.tools[0]!.id).toBe('call_1');
  });

  it('answers a tool result with its text, and with thinking on starts with a block signed by the given signer', () => {
    const reply = planClaudeReply(toolLoop({ kind: 'thinking', text: 't', signature: sign('t') }), () => 'id', sign);
    expect(reply.text).toBe('Echo: sunny');
    expect(reply.thinking).toEqual({ text: 'Thinking about: sunny', signature: sign('Thinking about: sunny'), tokens: 3 });
    expect(reply.outputTokens).toBe(2 + 3);
  });

  it.each<[string, ClaudeChat, string | undefined]>([
    ['thinking off', chatOf({}), undefined],
    ['a budget under 1024', chatOf({ thinking: { type: 'enabled', budget_tokens: 1000 } }), 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'],
    ['a budget not below maxTokens', chatOf({ thinking: THINKING, maxTokens: 1024 }), '`max_tokens` must be greater than `thinking.budget_tokens`.'],
    ['its own signature back', toolLoop({ kind: 'thinking', text: 't', signature: sign('t') }), undefined],
    ['redacted thinking back', toolLoop({ kind: 'redacted-thinking', data: 'xyz' }), undefined],
    ['another signature', toolLoop({ kind: 'thinking', text: 't', signature: 'other' }), 'messages.1.content.0: Invalid `signature` in `thinking` block'],
    ['text first', toolLoop({ kind: 'text', text: 'hi' }), 'found `text`'],
    ['a wire block first', toolLoop({ kind: 'other', type: 'image' }), 'found `image`'],
  ])('thinking rules: %s', (_, chat, problem) => {
    const found = findThinkingProblem(chat, sign);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('plans a call to a tool whose name is an object without a callable toString (JSON can hold one)', () => {
    const name = JSON.parse('{"toString": ""}');
    const reply = planClaudeReply(chatOf({ tools: [{ name, schema: { properties: { q: { type: name } } } }], thinking: THINKING, maxTokens: 2048 }), () => 'id', sign);
    expect(reply.tools).toEqual([{ id: 'id', name: '[object Object]', input: { q: 'weather in Paris' } }]);
  });

  it('never throws and counts no negative or fractional tokens, whatever the chat holds', () => {
    const block = fc.oneof(
      fc.record({ kind: fc.constant('text' as const), text: fc.string() }),
      fc.record({ kind: fc.constant('tool-call' as const) }),
      fc.record({ kind: fc.constant('tool-result' as const), text: fc.string() }),
      fc.record({ kind: fc.constant('thinking' as const), text: fc.anything(), signature: fc.anything() }),
      fc.record({ kind: fc.constant('other' as const), type: fc.anything() }),
    );
    const chat = fc.record({
      system: fc.string(),
      turns: fc.array(fc.record({ role: fc.constantFrom<unknown>('user', 'assistant', 7), blocks: fc.array(block, { maxLength: 4 }) }), { maxLength: 4 }),
      tools: fc.array(fc.record({ name: fc.anything(), schema: fc.anything() }), { maxLength: 3 }),
      choice: fc.record({ type: fc.anything(), name: fc.anything(), oneCall: fc.boolean() }),
      maxTokens: fc.anything(),
      thinking: fc.oneof(fc.anything(), fc.record({ type: fc.constant('enabled'), budget_tokens: fc.integer() })),
    });
    fc.assert(
      fc.property(chat, (value) => {
        findThinkingProblem(value, sign);
        const reply = planClaudeReply(value, () => 'id', sign);
        for (const n of [reply.inputTokens, reply.outputTokens, countClaudeInput(value)]) expect(Number.isInteger(n) && n >= 0).toBe(true);
      }),
    );
  });
});
