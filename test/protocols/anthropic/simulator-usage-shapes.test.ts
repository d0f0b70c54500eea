/**
 * The Anthropic simulator's usage shapes: `message_delta` with `output_tokens` alone (option
 * `messageDeltaUsage: 'output-only'`, as messages-stream-output-only-usage.sse), and the prompt cache that
 * `cache_control` marks drive (`cache_creation_input_tokens` on the first request, `cache_read_input_tokens`
 * after, both excluded from `input_tokens`).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator } from '../../../src/protocols/anthropic/simulator/index.ts';
import type { Simulator } from '../../../src/simulators/types.ts';
import { parseSse, readSseFixture } from '../../simulators/helpers.ts';

const KEY = 'sk-ant-sim-anthropic';
let sim: Simulator;

async function post(body: unknown): Promise<string> {
  const res = await request(`${sim.url}/v1/messages`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body),
  });
  return res.body.text();
}

beforeAll(async () => {
  sim = await startAnthropicSimulator({ messageDeltaUsage: 'output-only' });
});
afterAll(() => sim.close());

describe('Anthropic simulator usage shapes', () => {
  it("messageDeltaUsage 'output-only': message_delta usage holds output_tokens alone, as the documented example", async () => {
    const events = parseSse(await post({ model: 'claude-sonnet-4-6', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hello there' }] }));
    const fixture = readSseFixture('anthropic/messages-stream-output-only-usage.sse');
    const delta = (list: { event?: string; data: string }[]) => JSON.parse(list.find((e) => e.event === 'message_delta')!.data);
    expect(Object.keys(delta(events).usage)).toEqual(Object.keys(delta(fixture).usage));
    expect(delta(events).usage).toEqual({ output_tokens: 3 });
    expect(JSON.parse(events[0].data).message.usage).toMatchObject({ input_tokens: 2, output_tokens: 1 });
  });

  it('cache_control writes the marked prefix once, then reads it; input_tokens excludes both', async () => {
    const body = {
      model: 'claude-sonnet-4-6', max_tokens: 100,
      system: [{ type: 'text', text: 'You answer in five words', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'two words' }],
    };
    const first = JSON.parse(await post(body)).usage;
    expect(first).toMatchObject({ input_tokens: 2, cache_creation_input_tokens: 5, cache_read_input_tokens: 0 });
    const second = JSON.parse(await post(body)).usage;
    expect(second).toMatchObject({ input_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 5 });
    const unmarked = JSON.parse(await post({ ...body, system: 'You answer in five words' })).usage;
    expect(unmarked).toMatchObject({ input_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });
});
