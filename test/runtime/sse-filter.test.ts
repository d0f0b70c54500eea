import { describe, expect, it } from 'vitest';
import { openaiAdapter } from '../../src/protocols/openai.ts';
import { createSseEventFilter } from '../../src/runtime/sse-filter.ts';

async function run(chunks: string[]): Promise<string> {
  const filter = createSseEventFilter(openaiAdapter.isUsageOnlyEvent!);
  let out = '';
  filter.on('data', (chunk: Buffer) => (out += chunk.toString()));
  for (const chunk of chunks) filter.write(chunk);
  filter.end();
  await new Promise((resolve) => filter.on('end', resolve));
  return out;
}

describe('removing usage-only events from an OpenAI stream', () => {
  const content = 'data: {"choices":[{"index":0,"delta":{"content":"hi"}}],"usage":null}\n\n';
  const usage = 'data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}\n\n';
  const done = 'data: [DONE]\n\n';

  it('drops the usage chunk and keeps every other byte in order', async () => {
    expect(await run([content, usage, done])).toBe(content + done);
  });

  it('works when events are split at any position', async () => {
    const all = content + usage + done;
    for (let cut = 1; cut < all.length; cut += 7) {
      expect(await run([all.slice(0, cut), all.slice(cut)])).toBe(content + done);
    }
  });

  it('keeps a chunk with empty choices that carries no usage', async () => {
    const empty = 'data: {"choices":[],"usage":null}\n\n';
    expect(await run([empty, done])).toBe(empty + done);
  });
});
