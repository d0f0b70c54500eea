import { compileConfigFile } from '../../src/config/index.ts';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { simulateVendors } from '../../src/simulate.ts';

/** A gateway started by {@link startOwnVendorGateway}. */
export interface OwnVendorGateway {
  url: string;
  /** Resolves with the usage event of the next request to finish. */
  nextEvent(): Promise<UsageEvent>;
  /** Stops the gateway and its simulators (the test's own vendor is the test's to stop). */
  close(): Promise<void>;
}

/**
 * Starts a gateway on the default gateway.yaml (its vendors simulated) plus one OpenAI-protocol vendor `name`
 * at `vendorUrl` (a test's own server): model `${name}-chat` goes to it as upstream `name`, with no fallback
 * and no retry. `noLimits`: every key without limits (a property test sending more than the default rpm).
 */
export async function startOwnVendorGateway(name: string, vendorUrl: string, options: { noLimits?: boolean } = {}): Promise<OwnVendorGateway> {
  const { config } = await compileConfigFile('gateway.yaml');
  const setup = await simulateVendors(config!);
  const openai = Object.values(setup.config.vendors).find((entry) => entry.protocol === 'openai')!;
  const base = Object.values(setup.config.models).find((model) => model.targets[0]?.vendor === openai.name)!;
  const limited = options.noLimits
    ? { keys: setup.config.keys.map((key) => ({ ...key, limits: {} })), server: { ...setup.config.server, defaultLimits: {} } }
    : {};
  const waiters: ((event: UsageEvent) => void)[] = [];
  const gateway = createGateway({
    config: {
      ...setup.config,
      ...limited,
      vendors: { ...setup.config.vendors, [name]: { ...openai, name, baseUrl: vendorUrl } },
      models: {
        ...setup.config.models,
        [`${name}-chat`]: { ...base, id: `${name}-chat`, targets: [{ vendor: name, upstream: name, weight: 1 }], fallback: [], routing: { ...base.routing, retries: 0 } },
      },
    },
    env: setup.env,
    onUsage: [(event) => waiters.shift()?.(event)],
  });
  const url = await gateway.listen(0, '127.0.0.1');
  return {
    url,
    nextEvent: () => new Promise<UsageEvent>((resolve) => waiters.push(resolve)),
    close: async () => {
      await gateway.close();
      await setup.close();
    },
  };
}
