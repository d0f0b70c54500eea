import { describe, expect, test } from 'vitest';
import { checkUnknownFields, createFieldPolicy } from '../../src/translate/field-policy.ts';
import { GatewayError } from '../../src/errors.ts';

describe('untranslatable field policy', () => {
  test('drops a field and remembers it when not strict', () => {
    const policy = createFieldPolicy(false);
    policy.drop('logprobs');
    policy.drop('logprobs');
    expect(policy.dropped).toEqual(['logprobs']);
  });

  test('rejects with a 400 naming the field (in the client style via the name table) when strict', () => {
    const policy = createFieldPolicy(true, { topK: 'generationConfig.topK' });
    let error: unknown;
    try {
      policy.drop('topK', 'the vendor has no top-k sampling');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 400, code: 'untranslatable_field', param: 'generationConfig.topK' });
    expect((error as Error).message).toBe("The field 'generationConfig.topK' cannot be translated for this model: the vendor has no top-k sampling.");
  });

  test('ignores bookkeeping fields even when strict', () => {
    const policy = createFieldPolicy(true);
    checkUnknownFields({ model: 'm', metadata: {}, store: false, extra: null }, new Set(['model']), new Set(['metadata']), policy);
    expect(policy.dropped).toEqual(['metadata']);
  });

  test('treats unknown fields as untranslatable', () => {
    const policy = createFieldPolicy(false);
    checkUnknownFields({ model: 'm', logit_bias: { 1: 2 }, audio: {} }, new Set(['model']), new Set(), policy);
    expect(policy.dropped).toEqual(['logit_bias', 'audio']);
  });
});
