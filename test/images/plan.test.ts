import { describe, expect, it } from 'vitest';
import type { ImageOptions } from '../../src/config/types.ts';
import { MAX_SPLIT_PARTS, planImageParts } from '../../src/images/plan.ts';
import type { ImageRequest } from '../../src/images/types.ts';

const options: ImageOptions = { shape: 'openai', maxN: 1, splitN: false, styleUnsupported: 'reject', rehost: false, b64FromUrl: true, b64Only: false, pollTimeoutMs: 1000 };
const request = (n: number, nParam = 'n'): ImageRequest => ({ vendorBody: {}, n, nSent: true, nParam, responseFormat: 'url' });

describe('planImageParts', () => {
  it('makes one call with the body as it is when n is within max_n or there is no limit', () => {
    expect(planImageParts(request(1), options, 'dall-e-3')).toEqual([undefined]);
    expect(planImageParts(request(7), { ...options, maxN: undefined }, 'm')).toEqual([undefined]);
  });

  it('answers 400 naming the limit and the field when splitting is off', () => {
    expect(() => planImageParts(request(3), options, 'dall-e-3')).toThrow(
      expect.objectContaining({ status: 400, param: 'n', message: "Model 'dall-e-3' accepts at most n=1 per request; send 3 requests." }),
    );
    expect(() => planImageParts(request(5, 'parameters.n'), { ...options, maxN: 4 }, 'wan')).toThrow(expect.objectContaining({ param: 'parameters.n' }));
  });

  it('splits into calls of max_n and one with the rest', () => {
    expect(planImageParts(request(3), { ...options, splitN: true }, 'dall-e-3')).toEqual([1, 1, 1]);
    expect(planImageParts(request(10), { ...options, maxN: 4, splitN: true }, 'wan')).toEqual([4, 4, 2]);
  });

  it('refuses more than the split limit', () => {
    expect(() => planImageParts(request(MAX_SPLIT_PARTS + 1), { ...options, splitN: true }, 'dall-e-3')).toThrow(
      expect.objectContaining({ status: 400, param: 'n', message: expect.stringContaining(`at most ${MAX_SPLIT_PARTS}`) }),
    );
  });
});
