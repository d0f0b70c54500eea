/** Turns of alternating roles: consecutive messages of a role joined, tool results first in user turns, in order. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ContentPart } from '../../src/translate/canonical.ts';
import { joinTurns } from '../../src/translate/helpers.ts';

interface Block {
  result: boolean;
  n: number;
}

/** A message whose parts stand for blocks: a text part `r<n>` is a tool result block, `t<n>` another block. */
const MESSAGE = fc.record({
  role: fc.constantFrom('user', 'assistant'),
  content: fc.array(fc.tuple(fc.boolean(), fc.nat(99)).map(([result, n]) => ({ type: 'text' as const, text: `${result ? 'r' : 't'}${n}` })), { maxLength: 5 }),
});

const writeBlocks = (content: readonly ContentPart[]): Block[] =>
  content.map((part) => ({ result: (part as { text: string }).text.startsWith('r'), n: Number((part as { text: string }).text.slice(1)) }));

/** The same turns as joined by a stable sort of each user turn by rank (the former implementation). */
function joinBySort(messages: Array<{ role: string; content: readonly ContentPart[] }>): Array<{ role: string; content: Block[] }> {
  const out: Array<{ role: string; content: Block[] }> = [];
  for (const message of messages) {
    const blocks = writeBlocks(message.content);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === message.role) last.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  }
  for (const turn of out) if (turn.role === 'user') turn.content.sort((a, b) => (a.result ? 0 : 1) - (b.result ? 0 : 1));
  return out;
}

describe('joinTurns', () => {
  test('gives the turns a stable sort of each user turn by "tool result first" gives, for any messages', () => {
    fc.assert(fc.property(fc.array(MESSAGE, { maxLength: 6 }), (messages) => {
      expect(joinTurns(messages, writeBlocks, (block) => block.result)).toEqual(joinBySort(messages));
    }));
  });

  test('moves tool results to the front of a user turn, each group in its order; assistant turns keep theirs', () => {
    const text = (t: string) => ({ type: 'text' as const, text: t });
    const turns = joinTurns(
      [
        { role: 'user', content: [text('t1'), text('r2')] },
        { role: 'user', content: [text('t3'), text('r4')] },
        { role: 'assistant', content: [text('t5'), text('r6')] },
      ],
      writeBlocks,
      (block) => block.result,
    );
    expect(turns.map((turn) => turn.content.map((block) => `${block.result ? 'r' : 't'}${block.n}`))).toEqual([['r2', 'r4', 't1', 't3'], ['t5', 'r6']]);
  });
});
