/**
 * With thinking on, a forced tool choice and a top_p under 0.95 (which Claude refuses) go through the
 * field policy on the messages protocol and on Converse: sent as auto / left out and named, or a 400
 * naming the client's field under strict. The simulators refuse the unfitted bodies as the vendor does,
 * and take the fitted ones.
 */
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { startAnthropicSimulator } from '../../src/protocols/anthropic/simulator/index.ts';
import { bedrockChat } from '../../src/protocols/bedrock/index.ts';
import { BEDROCK_SIM_ACCESS_KEY_ID, startBedrockSimulator, type BedrockSimulator } from '../../src/protocols/bedrock/simulator/index.ts';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import type { Simulator } from '../../src/simulators/types.ts';
import type { CanonicalRequest } from '../../src/translate/canonical.ts';
import type { VendorAdapter } from '../../src/translate/adapter.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';
import { findClaudeSamplingProblem } from '../../src/simulators/claude-sampling.ts';

const NAMES = { toolChoice: 'tool_choice', topP: 'top_p', reasoning: 'reasoning_effort' };
const BASE: CanonicalRequest = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] }],
  tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  maxTokens: 4000, stream: false, includeUsage: false, reasoning: { enabled: true, budgetTokens: 1024 },
};
const PROTOCOLS: Array<{ protocol: string; adapter: VendorAdapter; model: string; choice: (b: any) => unknown; topP: (b: any) => unknown }> = [
  { protocol: 'anthropic', adapter: anthropicChat, model: 'claude-sonnet-4-6', choice: (b: any) => b.tool_choice, topP: (b: any) => b.top_p },
  { protocol: 'bedrock', adapter: bedrockChat, model: 'us.anthropic.claude-sonnet-4-20250514-v1:0', choice: (b: any) => b.toolConfig.toolChoice, topP: (b: any) => b.inferenceConfig.topP },
];

function encode(adapter: VendorAdapter, model: string, fields: Partial<CanonicalRequest>, strict = false) {
  const policy = createFieldPolicy(strict, NAMES);
  const body = adapter.encodeRequest({ ...BASE, ...fields }, { model, policy, defaultMaxTokens: 4096, fieldNames: NAMES }).body as any;
  return { body, dropped: policy.dropped };
}

let claude: Simulator;
let bedrock: BedrockSimulator;
beforeAll(async () => {
  [claude, bedrock] = await Promise.all([startAnthropicSimulator(), startBedrockSimulator({ key: 'sim-secret' })]);
});
afterAll(async () => {
  await Promise.all([claude.close(), bedrock.close()]);
});

/** The simulated vendor's status and message for `body`. */
async function send(protocol: string, model: string, body: any): Promise<{ status: number; message: string }> {
  if (protocol === 'anthropic') {
    const res = await request(`${claude.url}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': SIMULATOR_KEYS.anthropic, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model, ...body }),
    });
    const json: any = await res.body.json();
    return { status: res.statusCode, message: json.error?.message ?? '' };
  }
  const client = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: bedrock.url, credentials: { accessKeyId: BEDROCK_SIM_ACCESS_KEY_ID, secretAccessKey: 'sim-secret' }, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
  try {
    await client.send(new ConverseCommand({ modelId: model, ...body }));
    return { status: 200, message: '' };
  } catch (error: any) {
    return { status: error.$metadata?.httpStatusCode ?? 0, message: error.message };
  }
}

describe.each(PROTOCOLS)('$protocol with thinking on', ({ protocol, adapter, model, choice, topP }) => {
  test.each([
    ['a forced tool', { toolChoice: { type: 'tool', name: 'get_weather' } }, 'tool_choice', /Thinking may not be enabled when tool_choice forces tool use/],
    ['a required tool', { toolChoice: { type: 'required' } }, 'tool_choice', /tool_choice forces tool use/],
    ['top_p 0.5', { topP: 0.5 }, 'top_p', /`top_p` must be greater than or equal to 0.95/],
  ] as const)('%s: refused by the vendor as sent, fitted and named by the gateway, a 400 under strict', async (_name, fields, field, refusal) => {
    const fitted = encode(adapter, model, fields as Partial<CanonicalRequest>);
    expect(fitted.dropped).toEqual([field]);
    if (field === 'tool_choice') expect(choice(fitted.body)).toEqual(protocol === 'anthropic' ? { type: 'auto' } : { auto: {} });
    else expect(topP(fitted.body)).toBeUndefined();
    expect((await send(protocol, model, fitted.body)).status).toBe(200);
    const raw = structuredClone(fitted.body);
    if (field === 'top_p') {
      if (protocol === 'anthropic') raw.top_p = 0.5;
      else raw.inferenceConfig.topP = 0.5;
    } else if (protocol === 'anthropic') raw.tool_choice = { type: 'any' };
    else raw.toolConfig.toolChoice = { any: {} };
    const refused = await send(protocol, model, raw);
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(refusal);
    expect(() => encode(adapter, model, fields as Partial<CanonicalRequest>, true)).toThrow(expect.objectContaining({ status: 400, param: field }));
  });

  test('auto and none tool choices, top_p from 0.95 and anything with thinking off pass unchanged', () => {
    fc.assert(fc.property(fc.double({ min: 0.95, max: 1, noNaN: true }), fc.constantFrom('auto', 'none'), (p, type) => {
      const kept = encode(adapter, model, { topP: p, toolChoice: { type } });
      expect(kept.dropped).toEqual([]);
      expect(topP(kept.body)).toBe(p);
    }));
    const off = encode(adapter, model, { reasoning: { enabled: false }, topP: 0.1, toolChoice: { type: 'required' } });
    expect(off.dropped).toEqual([]);
    expect(topP(off.body)).toBe(0.1);
  });
});

test('the simulators\' rule: any thinking-off body, or auto with top_p >= 0.95, is taken', () => {
  fc.assert(fc.property(fc.anything(), fc.boolean(), fc.anything(), (thinking, forced, p) => {
    const problem = findClaudeSamplingProblem(thinking, forced, p);
    const on = typeof thinking === 'object' && thinking !== null && (thinking as any).type === 'enabled';
    if (!on || (!forced && !(typeof p === 'number' && p < 0.95))) expect(problem).toBeUndefined();
    else expect(problem).toMatch(/thinking is enabled|forces tool use/);
  }));
});
