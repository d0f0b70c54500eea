import { LAUNCHERS, startCliGateway, type CliGateway } from './start-cli-gateway.ts';
import { waitFor } from './wait-for.ts';
import { writeGatewayConfig, type WrittenConfig } from './write-gateway-config.ts';

/** The secrets of the keys {@link writeConsoleConfig} adds: `ops` (admin) and `team` (a client key, rpm 100). */
export const CONSOLE_ENV = { OPS_KEY: 'sk-browser-ops-admin', TEAM_KEY: 'sk-browser-team-client' };

/**
 * A model whose name is markup: the console must show it as text, and run nothing. gateway.yaml's model
 * names hold no whitespace, so the attributes are separated by `/` (which browsers parse the same way).
 */
export const HOSTILE_MODEL = '<img/src=x/onerror=alert(1)>';

/**
 * gateway.yaml with the console on (admin listener on an ephemeral port of 127.0.0.1), the keys of
 * {@link CONSOLE_ENV}, the model {@link HOSTILE_MODEL}, and `server.store` on `GATEWAY_REDIS_URL` when `redis`.
 */
export function writeConsoleConfig(redis: boolean): Promise<WrittenConfig> {
  return writeGatewayConfig((raw) => {
    raw.server.admin = { host: '127.0.0.1', port: 0 };
    raw.server.console = true;
    if (redis) raw.server.store = 'env:GATEWAY_REDIS_URL';
    raw.keys.push({ name: 'ops', key: 'env:OPS_KEY', admin: true }, { name: 'team', key: 'env:TEAM_KEY', models: ['*'], limits: { rpm: 100 } });
    raw.models[HOSTILE_MODEL] = { vendor: 'openai', upstream: 'gpt-4o-mini' };
  });
}

/** A `gateway start --simulate` process with its admin listener's URL. */
export interface ConsoleCli extends CliGateway {
  adminUrl: string;
}

/** Starts `gateway start --config file --simulate` (and `args`) with {@link CONSOLE_ENV} and `env`, and waits for its admin listener. */
export async function startConsoleCli(file: string, env: Record<string, string> = {}, args: string[] = []): Promise<ConsoleCli> {
  // A loaded machine starts workers slowly: a minute before giving up.
  const cli = await startCliGateway(file, { ...CONSOLE_ENV, ...env }, ['--simulate', ...args], LAUNCHERS.node, 60_000);
  await waitFor(() => /admin listener on http:\/\/[\d.:]+/.test(cli.output()), 10_000);
  return { ...cli, adminUrl: /admin listener on (http:\/\/[\d.:]+)/.exec(cli.output())![1] };
}
