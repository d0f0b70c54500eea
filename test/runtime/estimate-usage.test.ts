import { describe, expect, it } from 'vitest';
import { addUsageEstimate } from '../../src/runtime/estimate-usage.ts';
import { estimateTokens } from '../../src/spend/estimate-tokens.ts';
import type { ChargedUsage, RequestContext } from '../../src/runtime/types.ts';

/** The fields of a request context the estimate reads. */
function createContext(options: { usage?: ChargedUsage; vendorCalls?: number; body?: 'json' | 'multipart'; contentLength?: number; streamedBytes?: number }) {
  const headers: Record<string, string> = options.contentLength === undefined ? {} : { 'content-length': String(options.contentLength) };
  return {
    usage: options.usage ?? {},
    vendorCalls: options.vendorCalls ?? 1,
    streamedBytes: options.streamedBytes ?? 0,
    route: { body: options.body ?? 'json' },
    req: { headers },
  } as unknown as RequestContext;
}

describe('estimateTokens', () => {
  it('counts one token per 4 bytes, rounded up', () => {
    expect([estimateTokens(0), estimateTokens(1), estimateTokens(4), estimateTokens(401)]).toEqual([0, 1, 1, 101]);
  });
});

describe('addUsageEstimate', () => {
  it('leaves a request that called no vendor alone', () => {
    const ctx = createContext({ vendorCalls: 0, contentLength: 400 });
    addUsageEstimate(ctx, false);
    expect(ctx.usage).toEqual({});
  });

  it("keeps the vendor's counts of a finished request", () => {
    const ctx = createContext({ usage: { inputTokens: 3, outputTokens: 5 }, contentLength: 400, streamedBytes: 4000 });
    addUsageEstimate(ctx, true);
    expect(ctx.usage).toEqual({ inputTokens: 3, outputTokens: 5 });
  });

  it('estimates a finished request whose vendor reported no counts from its body', () => {
    const ctx = createContext({ contentLength: 400 });
    addUsageEstimate(ctx, true);
    expect(ctx.usage).toEqual({ inputTokens: 100, outputTokens: 0, totalTokens: 100, estimated: true });
  });

  it("keeps a reported input count and raises the output count to the bytes streamed when the request ended early", () => {
    // 640 streamed bytes at 32 bytes a token (framing included): 20 tokens.
    const ctx = createContext({ usage: { inputTokens: 11, outputTokens: 1 }, contentLength: 4000, streamedBytes: 640 });
    addUsageEstimate(ctx, false);
    expect(ctx.usage).toEqual({ inputTokens: 11, outputTokens: 20, totalTokens: 31, estimated: true });
  });

  it('keeps a partial output count higher than the estimate', () => {
    const ctx = createContext({ usage: { outputTokens: 50 }, contentLength: 8, streamedBytes: 8 });
    addUsageEstimate(ctx, false);
    expect(ctx.usage).toEqual({ inputTokens: 2, outputTokens: 50, totalTokens: 52, estimated: true });
  });

  it('counts no input for an upload (not text) and marks nothing when there is nothing to estimate', () => {
    const ctx = createContext({ body: 'multipart', contentLength: 1_000_000 });
    addUsageEstimate(ctx, false);
    expect(ctx.usage).toEqual({});
  });
});
