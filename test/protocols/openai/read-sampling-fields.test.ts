import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openAIChatAdapter } from '../../../src/protocols/openai/chat/index.ts';
import { completionsAdapter } from '../../../src/protocols/openai/completions/index.ts';
import { ALL_SAMPLING_FIELDS, readSamplingFields } from '../../../src/protocols/openai/read-sampling-fields.ts';
import { responsesAdapter } from '../../../src/protocols/openai/responses/index.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';

const NONE = { temperature: undefined, topP: undefined, presencePenalty: undefined, frequencyPenalty: undefined, seed: undefined };

describe('readSamplingFields: the one reader of the OpenAI sampling fields', () => {
  it.each<[string, Record<string, unknown>, readonly ('temperature' | 'topP' | 'presencePenalty' | 'frequencyPenalty' | 'seed')[], Record<string, unknown>]>([
    ['every field, in canonical names', { temperature: 0.2, top_p: 0.9, presence_penalty: -1, frequency_penalty: 1.5, seed: 7 }, ALL_SAMPLING_FIELDS, { temperature: 0.2, topP: 0.9, presencePenalty: -1, frequencyPenalty: 1.5, seed: 7 }],
    ['absent and null as undefined', { temperature: null }, ALL_SAMPLING_FIELDS, NONE],
    ['only the fields asked for (Responses: two)', { temperature: 1, top_p: 0.5, seed: 3, presence_penalty: 'ignored' }, ['temperature', 'topP'], { temperature: 1, topP: 0.5 }],
  ])('reads %s', (_, body, fields, expected) => {
    expect(readSamplingFields(body, fields)).toStrictEqual(expected);
  });

  it.each([
    ['temperature', 'hot'],
    ['top_p', Number.POSITIVE_INFINITY],
    ['presence_penalty', [1]],
    ['frequency_penalty', { value: 1 }],
    ['seed', '7'],
  ])('answers 400 naming %s when it is %j', (field, value) => {
    expect(() => readSamplingFields({ [field]: value }, ALL_SAMPLING_FIELDS)).toThrow(expect.objectContaining({ status: 400, param: field }));
  });

  it('is what the three decoders read: the same values and the same 400s', () => {
    const decoders = [
      [openAIChatAdapter, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, ALL_SAMPLING_FIELDS],
      [completionsAdapter, { model: 'm', prompt: 'hi' }, ALL_SAMPLING_FIELDS],
      [responsesAdapter, { model: 'm', input: 'hi' }, ['temperature', 'topP'] as const],
    ] as const;
    const value = fc.oneof(fc.double(), fc.integer(), fc.constant(null), fc.string(), fc.boolean());
    const sampling = fc.record({ temperature: value, top_p: value, presence_penalty: value, frequency_penalty: value, seed: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(sampling, (fields) => {
        for (const [adapter, base, read] of decoders) {
          const body = { ...base, ...fields };
          let expected: unknown;
          let refused: unknown;
          try {
            expected = readSamplingFields(body, read);
          } catch (error) {
            refused = error;
          }
          const decode = () => adapter.decodeRequest(body, { policy: createFieldPolicy(false) });
          if (refused) expect(decode).toThrow(expect.objectContaining({ status: 400, param: (refused as { param: string }).param }));
          else expect(decode()).toMatchObject(expected as object);
        }
      }),
    );
  });

  it('reads every field by name as the loop over the field list reads them: the same object, key order and 400s', () => {
    const value = fc.oneof(fc.double(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.string(), fc.boolean());
    const sampling = fc.record({ temperature: value, top_p: value, presence_penalty: value, frequency_penalty: value, seed: value }, { requiredKeys: [] });
    const read = (body: Record<string, unknown>, fields: typeof ALL_SAMPLING_FIELDS) => {
      try {
        const out = readSamplingFields(body, fields);
        return { keys: Object.keys(out), out };
      } catch (error) {
        return { error };
      }
    };
    fc.assert(fc.property(sampling, (body) => {
      expect(read(body, ALL_SAMPLING_FIELDS)).toStrictEqual(read(body, [...ALL_SAMPLING_FIELDS]));
    }));
  });
});
