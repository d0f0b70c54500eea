/**
 * Simulated vendors: real local HTTP servers speaking each vendor's wire format (see
 * test/fixtures/vendors), one per protocol of the registry (each adapter's `simulator`, loaded on demand).
 * Used by `--simulate`, by every test and by the benchmark.
 */
import type { Protocol } from '../config/types.ts';
import type { SimulatorOptions } from '../simulators/types.ts';
import { PROTOCOLS } from './index.ts';
import type { ProtocolAdapter } from './types.ts';

export { SIMULATOR_KEY_ID } from '../simulators/keys.ts';
export type { Fault, RecordedRequest, SimulatedVendor, Simulator, SimulatorOptions } from '../simulators/types.ts';

/** The running simulator of each protocol, typed as its protocol's simulator (some have test controls of their own). */
export type Simulators = { [P in Protocol]: (typeof PROTOCOLS)[P] extends ProtocolAdapter<infer S> ? S : never };

const NAMES = Object.keys(PROTOCOLS) as Protocol[];

/** The key each simulator accepts unless started with another. */
export const SIMULATOR_KEYS = Object.fromEntries(NAMES.map((name) => [name, PROTOCOLS[name].simulator.key])) as Record<Protocol, string>;

/**
 * Starts the simulator of every protocol (keys default to SIMULATOR_KEYS; `options` per protocol, e.g. the
 * usage shapes of SimulatorOptions); `close()` stops them all.
 */
export async function startSimulators(o: { keys?: Partial<Record<Protocol, string>>; options?: Partial<Record<Protocol, SimulatorOptions>> } = {}): Promise<Simulators & { close(): Promise<void> }> {
  const keys = { ...SIMULATOR_KEYS, ...o.keys };
  const started = await Promise.all(
    NAMES.map(async (name) => {
      const start = await (PROTOCOLS[name] as ProtocolAdapter).simulator.load();
      return [name, await start({ ...o.options?.[name], key: keys[name] })] as const;
    }),
  );
  const sims = Object.fromEntries(started) as unknown as Simulators;
  return {
    ...sims,
    async close(): Promise<void> {
      await Promise.all(started.map(([, sim]) => sim.close()));
    },
  };
}
