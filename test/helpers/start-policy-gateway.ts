import type { CompiledConfig, ModelEntry, RoutingPolicy, TargetEntry } from '../../src/config/types.ts';
import { compileConfigFile } from '../../src/config/index.ts';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import type { Services } from '../../src/runtime/services.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { SIMULATOR_CLIENT_KEY, simulateVendors, type SimulatedSetup } from '../../src/simulate.ts';
import { startOpenAISimulator, type Simulator } from '../../src/simulators/index.ts';

/** Vendor names the policy gateway adds next to those of gateway.yaml. */
export const TWIN_VENDOR = 'openai-twin';
export const SLOW_VENDOR = 'openai-slow';

/** Options of {@link startPolicyGateway}. */
export interface PolicyGatewayOptions {
  /** Changes the compiled config (models, keys, limits) before the gateway starts. */
  configure?: (config: CompiledConfig) => CompiledConfig;
  /** Limits and cooldowns the gateway uses (default: in-memory over the config's server settings). */
  services?: (config: CompiledConfig) => Services | Promise<Services>;
  /** Pacing of the slow vendor's chat streams (default 10 events, 100 ms apart). */
  slow?: { streamEvents: number; streamIntervalMs: number };
}

/** A gateway on 127.0.0.1 over the simulators, with a twin and a slow OpenAI-protocol vendor. */
export interface PolicyGateway {
  url: string;
  /** A client key allowed every model (no limits of its own). */
  key: string;
  sims: SimulatedSetup['sims'];
  /** The simulator behind {@link SLOW_VENDOR}: chat streams paced by `slow`. */
  slowSim: Simulator;
  gateway: Gateway;
  config: CompiledConfig;
  /** Usage events of every finished request, in order. */
  events: UsageEvent[];
  /** Resolves once `count` usage events have been recorded in all. */
  waitForEvents(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A routing policy for tests: no retries, the usual fallback conditions, no cooldown. */
export function definePolicy(overrides: Partial<RoutingPolicy> = {}): RoutingPolicy {
  return { retries: 0, fallbackOn: ['429', '5xx', 'timeout', 'connect'], cooldownAfter: 0, cooldownMs: 30_000, ...overrides };
}

/** A chat model served by `targets` (then `fallback`) under `routing`. */
export function defineModel(id: string, targets: TargetEntry[], fallback: TargetEntry[] = [], routing = definePolicy()): ModelEntry {
  return { id, targets, fallback, routing, chat: { defaultMaxTokens: 1024, strict: false }, ownedBy: targets[0].vendor };
}

/** A target on `vendor` answering as `upstream`. */
export function defineTarget(vendor: string, upstream: string, weight = 1): TargetEntry {
  return { vendor, upstream, weight };
}

/**
 * Starts the simulators and a gateway on the default gateway.yaml plus chat models `sim-openai-chat`,
 * `sim-anthropic-chat` and `sim-gemini-chat` (one target each) and two OpenAI-protocol vendors:
 * {@link TWIN_VENDOR} (the same simulator as `openai`, told apart by upstream model names) and
 * {@link SLOW_VENDOR} (its own simulator whose chat streams are paced), then `configure` and `services`.
 */
export async function startPolicyGateway(options: PolicyGatewayOptions = {}): Promise<PolicyGateway> {
  const { config: base, problems } = await compileConfigFile('gateway.yaml');
  if (!base) throw new Error(problems.map((p) => p.message).join('\n'));
  const openai = base.vendors.openai;
  const extended: CompiledConfig = {
    ...base,
    vendors: {
      ...base.vendors,
      [TWIN_VENDOR]: { ...openai, name: TWIN_VENDOR },
      [SLOW_VENDOR]: { ...openai, name: SLOW_VENDOR },
    },
    models: {
      ...base.models,
      'sim-openai-chat': defineModel('sim-openai-chat', [defineTarget('openai', 'gpt-4o-mini')]),
      'sim-anthropic-chat': defineModel('sim-anthropic-chat', [defineTarget('anthropic', 'claude-sonnet-4-6')]),
      'sim-gemini-chat': defineModel('sim-gemini-chat', [defineTarget('google', 'gemini-2.5-flash')]),
    },
  };
  const configured = options.configure ? options.configure(extended) : extended;
  const pacing = options.slow ?? { streamEvents: 10, streamIntervalMs: 100 };
  const [setup, slowSim] = await Promise.all([simulateVendors(configured), startOpenAISimulator(pacing)]);
  const config: CompiledConfig = {
    ...setup.config,
    vendors: { ...setup.config.vendors, [SLOW_VENDOR]: { ...setup.config.vendors[SLOW_VENDOR], baseUrl: slowSim.url } },
  };
  const services = options.services ? await options.services(config) : undefined;
  const events: UsageEvent[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const gateway = createGateway({
    config,
    env: setup.env,
    services,
    onUsage: [
      (event) => {
        events.push(event);
        for (const waiter of waiters.splice(0)) {
          if (events.length >= waiter.count) waiter.resolve();
          else waiters.push(waiter);
        }
      },
    ],
  });
  const url = await gateway.listen(0, '127.0.0.1');
  return {
    url,
    key: SIMULATOR_CLIENT_KEY,
    sims: setup.sims,
    slowSim,
    gateway,
    config,
    events,
    waitForEvents: (count) =>
      new Promise((resolve) => (events.length >= count ? resolve() : waiters.push({ count, resolve }))),
    async close() {
      await gateway.close(0).catch(() => undefined);
      await Promise.all([setup.close(), slowSim.close()]);
    },
  };
}
