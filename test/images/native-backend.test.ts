import { describe, expect, it } from 'vitest';
import { readImagesResponse } from '../../src/images/native-backend.ts';

describe('readImagesResponse', () => {
  it('reads the spec’s fields and keeps the vendor’s other top-level fields apart', () => {
    const batch = readImagesResponse(
      { created: 5, data: [{ url: 'u', revised_prompt: 'r', unknown: 1 }, { b64_json: 'AA==' }], output_format: 'png', usage: { total_tokens: 3 } },
      'openai',
    );
    expect(batch).toEqual({ created: 5, data: [{ url: 'u', revised_prompt: 'r' }, { b64_json: 'AA==' }], extras: { output_format: 'png' }, rawUsage: { total_tokens: 3 } });
  });

  it('answers 502 for an answer without data', () => {
    expect(() => readImagesResponse({ created: 1 }, 'openai')).toThrow(expect.objectContaining({ status: 502, code: 'upstream_invalid_response' }));
  });
});
