import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { CompiledConfig, KeyEntry, LimitSpec } from '../../src/config/types.ts';
import {
  defineModel,
  definePolicy,
  defineTarget,
  SLOW_VENDOR,
  startPolicyGateway,
  TWIN_VENDOR,
  type PolicyGateway,
} from '../helpers/start-policy-gateway.ts';
import { sendChat, type ChatOptions, type ChatStyle } from '../helpers/send-chat.ts';

/**
 * The gateway of the per-key limit tests (test/e2e/limits-*.test.ts): each test uses its own key (limits
 * are per key and windows are one minute long), so tests count refusals instead of waiting for a window
 * to roll over.
 */
export const STYLES: ChatStyle[] = ['openai', 'anthropic', 'gemini'];
const CHAT_MODEL: Record<ChatStyle, string> = { openai: 'sim-openai-chat', anthropic: 'sim-anthropic-chat', gemini: 'sim-gemini-chat' };
const KEYS: Record<string, LimitSpec> = {
  'rpm-openai': { rpm: 3 },
  'rpm-anthropic': { rpm: 3 },
  'rpm-gemini': { rpm: 3 },
  'headers-openai': { rpm: 50, tpm: 10_000 },
  'headers-anthropic': { rpm: 50, tpm: 10_000 },
  'headers-gemini': { rpm: 50, tpm: 10_000 },
  'tpm-json': { tpm: 4 },
  'tpm-openai-stream': { tpm: 1000 },
  'tpm-anthropic-stream': { tpm: 1000 },
  'tpm-gemini-stream': { tpm: 1000 },
  'vendor-headers': { rpm: 7 },
  concurrency: { concurrency: 1 },
  'concurrency-leave': { concurrency: 1 },
  'concurrency-tokens': { concurrency: 1, tpm: 10_000 },
  'retried-once': { rpm: 2 },
  'fanned-once': { rpm: 1 },
};

/** The secret of a test key (the key's name is part of it). */
export const secretOf = (name: string) => `sk-limits-${name}`;

function defineKey(name: string, limits: LimitSpec): KeyEntry {
  return { name, secret: { sha256: createHash('sha256').update(secretOf(name)).digest('hex') }, models: ['*'], limits, strict: false };
}

/** Starts the limits gateway before the file's tests, resets its vendors before each, and closes it after. */
export function useLimitsGateway(): { readonly gw: PolicyGateway } {
  const holder = {} as { gw: PolicyGateway };
  beforeAll(async () => {
    holder.gw = await startPolicyGateway({
      slow: { streamEvents: 20, streamIntervalMs: 50 },
      configure: (config: CompiledConfig) => ({
        ...config,
        server: { ...config.server, defaultLimits: {} },
        keys: [...config.keys, ...Object.entries(KEYS).map(([name, limits]) => defineKey(name, limits))],
        models: {
          ...config.models,
          'slow-chat': defineModel('slow-chat', [defineTarget(SLOW_VENDOR, 'slow-upstream')]),
          'retried-chat': defineModel(
            'retried-chat',
            [defineTarget('openai', 'retried-primary')],
            [defineTarget(TWIN_VENDOR, 'retried-second')],
            definePolicy({ retries: 1 }),
          ),
          'dall-e-3-split': { ...config.models['dall-e-3'], id: 'dall-e-3-split', images: { ...config.models['dall-e-3'].images!, splitN: true } },
        },
      }),
    });
  });
  afterAll(() => holder.gw.close());
  beforeEach(() => {
    const { gw } = holder;
    for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini, gw.slowSim]) sim.reset();
  });
  return holder;
}

/** Request helpers bound to the file's limits gateway. */
export function createLimitsClient(holder: { readonly gw: PolicyGateway }) {
  const chat = (key: string, options: Partial<ChatOptions> & { style?: ChatStyle } = {}) => {
    const style = options.style ?? 'openai';
    return sendChat(holder.gw.url, { model: CHAT_MODEL[style], ...options, key: secretOf(key), style });
  };
  return {
    chat,
    simOf: (style: ChatStyle) => (style === 'openai' ? holder.gw.sims.openai : style === 'anthropic' ? holder.gw.sims.anthropic : holder.gw.sims.gemini),
    /** Sends a request and waits until the gateway has finished it (slot released, tokens charged). */
    async chatAndSettle(key: string, options: Partial<ChatOptions> & { style?: ChatStyle } = {}) {
      const before = holder.gw.events.length;
      const reply = await chat(key, options);
      await holder.gw.waitForEvents(before + 1);
      return reply;
    },
  };
}

/** The gateway's x-ratelimit-* headers of a response. */
export function readRateHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => name.startsWith('x-ratelimit-')));
}

/** Checks a 429 body is the caller style's own rate-limit error and returns its message. */
export function expectRateLimitBody(style: ChatStyle, json: any): string {
  if (style === 'openai') {
    expect(json.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null });
  } else if (style === 'anthropic') {
    expect(json.type).toBe('error');
    expect(json.error.type).toBe('rate_limit_error');
  } else {
    expect(json.error.code).toBe(429);
    expect(json.error.status).toBe('RESOURCE_EXHAUSTED');
  }
  return json.error.message;
}
