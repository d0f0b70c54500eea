import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { CompiledConfig, ModelEntry } from '../../src/config/types.ts';
import {
  defineModel,
  definePolicy,
  defineTarget,
  startPolicyGateway,
  TWIN_VENDOR,
  type PolicyGateway,
} from '../helpers/start-policy-gateway.ts';
import { readReceivedModels, sendChat, type ChatOptions } from '../helpers/send-chat.ts';

/**
 * The gateway of the routing tests (test/e2e/routing-*.test.ts): retries, fallbacks, weights and
 * cooldowns through the real gateway. Two vendor names (`openai` and its
 * twin) lead to the same OpenAI simulator: the upstream model name in what it received tells the
 * targets apart; `google` is the Gemini simulator (a cross-protocol fallback).
 */
const MODELS: ModelEntry[] = [
  defineModel('fb-500', [defineTarget('openai', 'fb500-primary')], [defineTarget(TWIN_VENDOR, 'fb500-second'), defineTarget('google', 'gemini-2.5-flash')]),
  defineModel('fb-same-vendor', [defineTarget('openai', 'sv-primary')], [defineTarget('openai', 'sv-other')]),
  defineModel('fb-connect-only', [defineTarget('openai', 'fbconn-primary')], [defineTarget(TWIN_VENDOR, 'fbconn-second')], definePolicy({ fallbackOn: ['connect'] })),
  defineModel('fb-timeout-only', [defineTarget('openai', 'fbto-primary')], [defineTarget(TWIN_VENDOR, 'fbto-second')], definePolicy({ fallbackOn: ['timeout'], attemptTimeoutMs: 300 })),
  defineModel('retry-429', [defineTarget('openai', 'r429-primary')], [defineTarget(TWIN_VENDOR, 'r429-second')], definePolicy({ retries: 1 })),
  defineModel('no-fallback-on-400', [defineTarget('openai', 'nf400-primary')], [defineTarget(TWIN_VENDOR, 'nf400-second')]),
  defineModel('hang', [defineTarget('openai', 'hang-primary')], [defineTarget(TWIN_VENDOR, 'hang-second')], definePolicy({ attemptTimeoutMs: 300 })),
  defineModel('weights', [defineTarget('openai', 'w-heavy', 3), defineTarget(TWIN_VENDOR, 'w-light', 1)]),
  defineModel('stream', [defineTarget('openai', 'st-primary')], [defineTarget(TWIN_VENDOR, 'st-second')]),
  defineModel('cooldown', [defineTarget('openai', 'cd-primary')], [defineTarget(TWIN_VENDOR, 'cd-second')], definePolicy({ cooldownAfter: 2, cooldownMs: 400 })),
  defineModel('deadline', [defineTarget('openai', 'dl-first')], [defineTarget(TWIN_VENDOR, 'dl-second'), defineTarget('openai', 'dl-third')], definePolicy({ attemptTimeoutMs: 400, deadlineMs: 500 })),
];

/** Starts the routing gateway before the file's tests, resets its vendors before each, and closes it after. */
export function useRoutingGateway() {
  const holder = {} as { gw: PolicyGateway };
  beforeAll(async () => {
    holder.gw = await startPolicyGateway({
      configure: (config: CompiledConfig) => ({
        ...config,
        server: { ...config.server, defaultLimits: {} },
        models: { ...config.models, ...Object.fromEntries(MODELS.map((model) => [model.id, model])) },
      }),
    });
  });
  afterAll(() => holder.gw.close());
  beforeEach(() => {
    for (const sim of [holder.gw.sims.openai, holder.gw.sims.anthropic, holder.gw.sims.gemini]) sim.reset();
  });
  return {
    holder,
    /** Sends a chat request with the gateway's own key. */
    chat: (model: string, options: Partial<ChatOptions> = {}) => sendChat(holder.gw.url, { key: holder.gw.key, model, ...options }),
    /** The upstream model names the OpenAI simulator received, in order. */
    openaiModels: () => readReceivedModels(holder.gw.sims.openai.received),
  };
}
