import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ImageOptions } from '../../src/config/types.ts';
import { generateImages, SPLIT_CONCURRENCY } from '../../src/images/generate.ts';
import type { ImageBackend, ImageRequest } from '../../src/images/types.ts';
import type { OpCall } from '../../src/runtime/types.ts';

const options: ImageOptions = { shape: 'openai', maxN: 2, splitN: true, styleUnsupported: 'reject', rehost: false, b64FromUrl: true, b64Only: false, pollTimeoutMs: 1000 };
const request: ImageRequest = { vendorBody: { model: 'm', prompt: 'p', n: 5 }, n: 5, nSent: true, nParam: 'n', responseFormat: 'url' };
const call = { ctx: { signal: new AbortController().signal } } as unknown as OpCall;

/** A vendor double answering one image per requested n, slower for earlier parts, recording bodies. */
function createBackend(fail?: number) {
  const bodies: any[] = [];
  const backend: ImageBackend = {
    urlOnly: false,
    async generate(_call, body) {
      const part = bodies.push(body) - 1;
      await sleep(30 - part * 10);
      if (part === fail) throw new Error(`part ${part} failed`);
      return {
        created: 100 + part,
        data: Array.from({ length: body.n as number }, (_, i) => ({ url: `part${part}-${i}` })),
        extras: { output_format: 'png' },
        usage: { inputTokens: 1, outputTokens: 10, totalTokens: 11 },
        rawUsage: { input_tokens: 1, output_tokens: 10, total_tokens: 11, input_tokens_details: { text_tokens: 1 } },
      };
    },
  };
  return { backend, bodies };
}

describe('generateImages', () => {
  it('calls the vendor once per part with its n and merges the images in part order', async () => {
    const { backend, bodies } = createBackend();
    const batch = await generateImages(call, backend, request, options, [2, 2, 1]);
    expect(bodies.map((b) => b.n)).toEqual([2, 2, 1]);
    expect(batch.data.map((d) => d.url)).toEqual(['part0-0', 'part0-1', 'part1-0', 'part1-1', 'part2-0']);
    expect(batch.created).toBe(102);
    expect(batch.extras).toEqual({ output_format: 'png' });
  });

  it('sums the parts’ usage, both the gateway’s and the vendor’s token counts', async () => {
    const batch = await generateImages(call, createBackend().backend, request, options, [2, 2, 1]);
    expect(batch.usage).toEqual({ inputTokens: 3, outputTokens: 30, totalTokens: 33 });
    expect(batch.rawUsage).toEqual({ input_tokens: 3, output_tokens: 30, total_tokens: 33 });
  });

  it('sends the body as it is for a single unsplit call', async () => {
    const { backend, bodies } = createBackend();
    const batch = await generateImages(call, backend, request, options, [undefined]);
    expect(bodies).toEqual([request.vendorBody]);
    expect(batch.rawUsage).toMatchObject({ input_tokens_details: { text_tokens: 1 } });
  });

  it('fails the whole request with the failing part’s error', async () => {
    await expect(generateImages(call, createBackend(1).backend, request, options, [2, 2, 1])).rejects.toThrow('part 1 failed');
  });

  it('runs at most SPLIT_CONCURRENCY parts at once', async () => {
    let running = 0;
    let peak = 0;
    const backend: ImageBackend = {
      urlOnly: false,
      async generate() {
        peak = Math.max(peak, ++running);
        await sleep(5);
        running--;
        return { created: 1, data: [{ url: 'u' }], extras: {} };
      },
    };
    await generateImages(call, backend, request, options, Array(10).fill(1));
    expect(peak).toBe(SPLIT_CONCURRENCY);
  });
});
