import type { CompiledConfig, ModelEntry, Protocol } from '../../src/config/types.ts';
import type { SimulatorOptions } from '../../src/simulators/index.ts';
import { compileConfigFile } from '../../src/config/index.ts';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import type { UsageSink } from '../../src/runtime/handle-request.ts';
import type { Services } from '../../src/runtime/services.ts';
import { SIMULATOR_CLIENT_KEY, simulateVendors, type SimulatedSetup } from '../../src/simulate.ts';

/** A gateway on 127.0.0.1 serving the default gateway.yaml from the simulated vendors. */
export interface TestGateway {
  url: string;
  /** A client key allowed every model. */
  key: string;
  sims: SimulatedSetup['sims'];
  gateway: Gateway;
  config: CompiledConfig;
  /** The environment the gateway reads vendor secrets from (the simulators'). */
  env: NodeJS.ProcessEnv;
  /** Usage events of every finished request, in order. */
  events: UsageEvent[];
  /** Resolves with the next usage event (the one of the request just sent). */
  nextEvent(): Promise<UsageEvent>;
  close(): Promise<void>;
}

function chatModel(id: string, vendor: string, upstream: string): ModelEntry {
  return {
    id,
    targets: [{ vendor, upstream, weight: 1 }],
    fallback: [],
    routing: { retries: 0, fallbackOn: ['429', '5xx', 'timeout', 'connect'], cooldownAfter: 3, cooldownMs: 30_000 },
    chat: { defaultMaxTokens: 1024, strict: false },
    ownedBy: vendor,
  };
}

/**
 * Starts the simulators and a gateway on the default config, with three extra chat models
 * (`sim-openai-chat`, `sim-anthropic-chat`, `sim-gemini-chat`) whose upstream names differ from their ids.
 * `configure` may change the compiled config before the gateway starts; `usageEvents: false` starts it
 * without a usage receiver (`events` then stays empty); `onUsage` adds receivers (e.g. the metrics),
 * `services` replaces the in-memory limits (e.g. a Redis store) and `simulators` passes options to the simulators.
 */
export async function startTestGateway(
  configure?: (config: CompiledConfig) => CompiledConfig,
  options: { usageEvents?: boolean; onUsage?: UsageSink[]; services?: Services; simulators?: Partial<Record<Protocol, SimulatorOptions>> } = {},
): Promise<TestGateway> {
  const { config: base, problems } = await compileConfigFile('gateway.yaml');
  if (!base) throw new Error(problems.map((p) => p.message).join('\n'));
  const withModels: CompiledConfig = {
    ...base,
    models: {
      ...base.models,
      'sim-openai-chat': chatModel('sim-openai-chat', 'openai', 'gpt-4o-mini'),
      'sim-anthropic-chat': chatModel('sim-anthropic-chat', 'anthropic', 'claude-sonnet-4-6'),
      'sim-gemini-chat': chatModel('sim-gemini-chat', 'google', 'gemini-2.5-flash'),
    },
  };
  const setup = await simulateVendors(configure ? configure(withModels) : withModels, {}, { simulators: options.simulators });
  const events: UsageEvent[] = [];
  const waiters: ((event: UsageEvent) => void)[] = [];
  const gateway = createGateway({
    config: setup.config,
    env: setup.env,
    services: options.services,
    onUsage: [
      ...(options.onUsage ?? []),
      ...(options.usageEvents === false
        ? []
        : [
            (event: UsageEvent) => {
              events.push(event);
              waiters.shift()?.(event);
            },
          ]),
    ],
  });
  const url = await gateway.listen(0, '127.0.0.1');
  return {
    url,
    key: SIMULATOR_CLIENT_KEY,
    sims: setup.sims,
    gateway,
    config: setup.config,
    env: setup.env,
    events,
    nextEvent: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      await gateway.close();
      await setup.close();
    },
  };
}
