import type { CompiledConfig, Protocol } from './config/types.ts';
import { startSimulators, SIMULATOR_KEY_ID, SIMULATOR_KEYS, type SimulatorOptions } from './protocols/simulators.ts';

/** The client key accepted in simulate mode (printed at start; never valid against real vendors). */
export const SIMULATOR_CLIENT_KEY = 'sk-gateway-simulator';

/** A config and environment whose vendors are the built-in simulators, plus a way to stop them. */
export interface SimulatedSetup {
  config: CompiledConfig;
  /** The running simulators (tests read what each received). */
  sims: Awaited<ReturnType<typeof startSimulators>>;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/**
 * Points every vendor of `config` at the built-in simulated vendor of its protocol, supplies the
 * simulators' keys, and adds a client key `sk-gateway-simulator` allowed every model. A reload passes the
 * simulators already running (`running`), so that a new config is served by the same ones; `simulators` are
 * options per simulator when they start (tests: usage shapes).
 */
export async function simulateVendors(
  config: CompiledConfig,
  env: NodeJS.ProcessEnv = {},
  options: { running?: SimulatedSetup['sims']; simulators?: Partial<Record<Protocol, SimulatorOptions>> } = {},
): Promise<SimulatedSetup> {
  const sims = options.running ?? (await startSimulators({ options: options.simulators }));
  const simEnv: NodeJS.ProcessEnv = { ...env, GATEWAY_SIMULATOR_KEY: SIMULATOR_CLIENT_KEY };
  const vendors = Object.fromEntries(
    Object.entries(config.vendors).map(([name, vendor]) => {
      const secretEnv = `GATEWAY_SIM_${vendor.protocol.toUpperCase()}_KEY`;
      simEnv[secretEnv] = SIMULATOR_KEYS[vendor.protocol];
      const auth = vendor.auth.kind === 'none' ? vendor.auth : { ...vendor.auth, env: secretEnv };
      // A signed vendor signs with the simulator's key id and secret (and no session token).
      if (auth.kind === 'signed') {
        auth.idEnv = `${secretEnv}_ID`;
        delete auth.tokenEnv;
        simEnv[auth.idEnv] = SIMULATOR_KEY_ID;
      }
      return [name, { ...vendor, baseUrl: sims[vendor.protocol].url, auth, proxy: undefined, caFile: undefined }];
    }),
  );
  const keys = [
    ...config.keys,
    { name: 'simulator', secret: { env: 'GATEWAY_SIMULATOR_KEY' }, models: ['*'], limits: {}, strict: false },
  ];
  return { config: { ...config, vendors, keys }, env: simEnv, sims, close: () => sims.close() };
}
