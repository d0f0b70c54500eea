import { describe, expect, it } from 'vitest';
import type { RequestContext, RuntimeVendor } from '../../src/runtime/types.ts';
import { VendorAnswer } from '../../src/runtime/vendor-answer.ts';

/** A vendor call's answer driven as undici drives its handler: the head, then `chunks`, then the end when `complete`. */
function answerWith(chunks: string[], complete: boolean): VendorAnswer {
  const ctx = { vendorMs: 0 } as RequestContext;
  const answer = new VendorAnswer(ctx, {} as RuntimeVendor, new AbortController().signal, () => undefined, () => undefined);
  answer.onHeaders(200, [Buffer.from('content-type'), Buffer.from('application/json')], () => undefined);
  for (const chunk of chunks) answer.onData(Buffer.from(chunk));
  if (complete) answer.onComplete();
  return answer;
}

/** What a reader started after the take gets. */
function readAfter(answer: VendorAnswer): string[] {
  const got: string[] = [];
  answer.read({ onData: (chunk) => got.push(`data:${chunk}`), onEnd: () => got.push('end'), onError: () => got.push('error') });
  return got;
}

describe('a vendor answer taken whole', () => {
  it('is its chunks joined, once, when the body ended before any reader started; nothing is read after it', () => {
    const answer = answerWith(['{"a":', '1}'], true);
    expect(answer.takeWhole(1024)?.toString()).toBe('{"a":1}');
    expect(answer.takeWhole(1024)).toBeUndefined();
    expect(readAfter(answer)).toEqual([]);
  });

  it('is its one chunk itself, and an empty body is empty', () => {
    expect(answerWith(['{}'], true).takeWhole(1024)?.toString()).toBe('{}');
    expect(answerWith([], true).takeWhole(1024)?.length).toBe(0);
  });

  it('is not taken while the body is still arriving, nor past the limit: a reader then gets it all as before', () => {
    const arriving = answerWith(['{"a":'], false);
    expect(arriving.takeWhole(1024)).toBeUndefined();
    const got = readAfter(arriving);
    arriving.onData(Buffer.from('1}'));
    arriving.onComplete();
    expect(got).toEqual(['data:{"a":', 'data:1}', 'end']);

    const large = answerWith(['{"a":', '1}'], true);
    expect(large.takeWhole(6)).toBeUndefined();
    expect(readAfter(large)).toEqual(['data:{"a":', 'data:1}', 'end']);
  });

  it('is not taken once a reader started', () => {
    const answer = answerWith(['{}'], true);
    expect(readAfter(answer)).toEqual(['data:{}', 'end']);
    expect(answer.takeWhole(1024)).toBeUndefined();
  });
});
