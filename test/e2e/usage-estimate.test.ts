/**
 * The billing rule for requests whose vendor counts never arrive: a client that aborts a stream midway
 * (before the vendor's final usage event) is charged an estimate, marked `estimated`, in every protocol
 * and through translation; the next request's token headers show the charge.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConfigFile } from '../../src/config/index.ts';
import type { CompiledConfig, KeyEntry } from '../../src/config/types.ts';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { simulateVendors, type SimulatedSetup } from '../../src/simulate.ts';
import { startAnthropicSimulator, startGeminiSimulator, startOpenAISimulator, type Simulator } from '../../src/simulators/index.ts';
import { sendChat, type ChatStyle } from '../helpers/send-chat.ts';
import { waitFor } from '../helpers/wait-for.ts';

const TPM = 100_000;
const PACING = { streamEvents: 40, streamIntervalMs: 40 };
const VENDOR_OF: Record<ChatStyle, string> = { openai: 'openai', anthropic: 'anthropic', gemini: 'google' };
const MODEL_OF: Record<ChatStyle, string> = { openai: 'gpt-4o', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-2.5-flash' };
const secretOf = (name: string) => `sk-estimate-${name}`;
const KEY_NAMES = ['openai', 'anthropic', 'gemini', 'translated', 'finished'];

let setup: SimulatedSetup;
let paced: Record<ChatStyle, Simulator>;
let gateway: Gateway;
let url: string;
const events: UsageEvent[] = [];

function defineKey(name: string): KeyEntry {
  return { name, secret: { sha256: createHash('sha256').update(secretOf(name)).digest('hex') }, models: ['*'], limits: { tpm: TPM }, strict: false };
}

beforeAll(async () => {
  const { config: base, problems } = await compileConfigFile('gateway.yaml');
  if (!base) throw new Error(problems.map((p) => p.message).join('\n'));
  setup = await simulateVendors({ ...base, server: { ...base.server, defaultLimits: {} }, keys: [...base.keys, ...KEY_NAMES.map(defineKey)] });
  const [openai, anthropic, gemini] = await Promise.all([startOpenAISimulator(PACING), startAnthropicSimulator(PACING), startGeminiSimulator(PACING)]);
  paced = { openai, anthropic, gemini };
  const vendors = { ...setup.config.vendors };
  for (const style of Object.keys(VENDOR_OF) as ChatStyle[]) vendors[VENDOR_OF[style]] = { ...vendors[VENDOR_OF[style]], baseUrl: paced[style].url };
  const config: CompiledConfig = { ...setup.config, vendors };
  gateway = createGateway({ config, env: setup.env, onUsage: [(event) => events.push(event)] });
  url = await gateway.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await gateway.close(0);
  await Promise.all([setup.close(), ...Object.values(paced).map((sim) => sim.close())]);
});

/** Starts a stream in `style`, reads its first bytes, aborts, and returns the request's usage event. */
async function abortMidway(key: string, style: ChatStyle, model: string): Promise<UsageEvent> {
  const before = events.length;
  const client = new AbortController();
  const reply = sendChat(url, { style, key: secretOf(key), model, stream: true, signal: client.signal }).catch((error: Error) => error);
  await waitFor(() => Object.values(paced).some((sim) => sim.received.length > 0));
  // A few of the stream's 40 events (40 ms apart) reach the client; the final usage event never does.
  await new Promise((resolve) => setTimeout(resolve, 300));
  client.abort();
  await reply;
  await waitFor(() => events.length > before);
  return events[before];
}

describe('an aborted stream', () => {
  it.each(['openai', 'anthropic', 'gemini'] as ChatStyle[])('of the %s protocol is charged an estimate marked as estimated', async (style) => {
    for (const sim of Object.values(paced)) sim.reset();
    const event = await abortMidway(style, style, MODEL_OF[style]);
    expect(event).toMatchObject({ status: 499, error: 'client_closed_request', vendorCalls: 1 });
    expect(event.usage.estimated).toBe(true);
    const charged = event.usage.inputTokens! + event.usage.outputTokens!;
    expect(event.usage.inputTokens).toBeGreaterThan(0);
    // More than a partial count (the messages protocol reports 1 output token at the start): bytes streamed.
    expect(event.usage.outputTokens).toBeGreaterThan(1);
    expect(event.usage.totalTokens).toBe(charged);

    const next = await sendChat(url, { style, key: secretOf(style), model: MODEL_OF[style] });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining-tokens')).toBe(String(TPM - charged));
    expect(paced[style].received).toHaveLength(2);
  });

  it('through translation (OpenAI client, Anthropic-protocol vendor) is charged an estimate too', async () => {
    for (const sim of Object.values(paced)) sim.reset();
    const event = await abortMidway('translated', 'openai', MODEL_OF.anthropic);
    expect(event).toMatchObject({ status: 499, vendorCalls: 1 });
    expect(event.usage).toMatchObject({ estimated: true });
    expect(event.usage.outputTokens).toBeGreaterThan(0);
    const next = await sendChat(url, { style: 'openai', key: secretOf('translated'), model: MODEL_OF.anthropic });
    expect(next.headers.get('x-ratelimit-remaining-tokens')).toBe(String(TPM - event.usage.inputTokens! - event.usage.outputTokens!));
    expect(paced.anthropic.received).toHaveLength(2);
  });
});

describe('a finished stream', () => {
  it("is charged the vendor's own counts, not an estimate", async () => {
    const before = events.length;
    const reply = await sendChat(url, { style: 'anthropic', key: secretOf('finished'), model: MODEL_OF.anthropic, stream: true });
    expect(reply.status).toBe(200);
    await waitFor(() => events.length > before);
    const { usage } = events[before];
    expect(usage.estimated).toBeUndefined();
    expect(usage.outputTokens).toBeGreaterThan(1);
  });
});
