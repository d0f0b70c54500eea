import { describe, expect, test } from 'vitest';
import type { Operation, Protocol, Style } from '../../../src/config/types.ts';
import { responsesState } from '../../../src/responses-state/responses-state.ts';
import { createTranslatorLookup } from '../../../src/runtime/translation/get-translator.ts';

const getTranslator = createTranslatorLookup(responsesState);

const TRANSLATED: Array<[Operation, Style, Protocol]> = [
  ['chat', 'openai', 'anthropic'],
  ['chat', 'openai', 'gemini'],
  ['responses', 'openai', 'anthropic'],
  ['responses', 'openai', 'gemini'],
  ['completions', 'openai', 'anthropic'],
  ['completions', 'openai', 'gemini'],
  ['messages', 'anthropic', 'openai'],
  ['messages', 'anthropic', 'gemini'],
  ['generate-content', 'gemini', 'openai'],
  ['generate-content', 'gemini', 'anthropic'],
  ['stream-generate-content', 'gemini', 'openai'],
  ['stream-generate-content', 'gemini', 'anthropic'],
  ['responses-compact', 'openai', 'anthropic'],
  ['responses-compact', 'openai', 'gemini'],
];

const NOT_MINE: Array<[Operation, Style, Protocol]> = [
  ['chat', 'openai', 'openai'],
  ['responses', 'openai', 'openai'],
  ['completions', 'openai', 'openai'],
  ['messages', 'anthropic', 'anthropic'],
  ['generate-content', 'gemini', 'gemini'],
  ['stream-generate-content', 'gemini', 'gemini'],
  ['chat', 'openai', 'dashscope'],
  ['embeddings', 'openai', 'anthropic'],
  ['count-tokens', 'anthropic', 'anthropic'],
  ['count-tokens', 'gemini', 'gemini'],
  ['images-generations', 'openai', 'gemini'],
];

const COUNTED: Array<[Operation, Style, Protocol]> = [
  ['count-tokens', 'anthropic', 'openai'],
  ['count-tokens', 'anthropic', 'gemini'],
  ['count-tokens', 'anthropic', 'dashscope'],
  ['count-tokens', 'gemini', 'openai'],
  ['count-tokens', 'gemini', 'anthropic'],
  ['count-tokens', 'gemini', 'dashscope'],
];

describe('getTranslator', () => {
  test.each(COUNTED)('counts tokens (%s) in %s style for %s vendors', (op, style, protocol) => {
    expect(getTranslator(op, style, protocol)).toBeTypeOf('function');
  });

  test.each(TRANSLATED)('serves %s in %s style on %s vendors', (op, style, protocol) => {
    expect(getTranslator(op, style, protocol)).toBeTypeOf('function');
  });

  test.each(NOT_MINE)('leaves %s in %s style on %s vendors to passthrough or others', (op, style, protocol) => {
    expect(getTranslator(op, style, protocol)).toBeUndefined();
  });

  test('answers compaction on a vendor without response state with a 400 naming previous_response_id', async () => {
    await expect(getTranslator('responses-compact', 'openai', 'anthropic')!({} as never)).rejects.toMatchObject({ status: 400, param: 'previous_response_id' });
  });
});
