/**
 * The `gateway` command: `build`, `check [file]`, `start [--config file] [--port n] [--simulate]`, `dev`.
 */
import { parseArgs } from 'node:util';
import { compileConfigFile, formatProblem } from './config/index.ts';
import type { CompiledConfig } from './config/types.ts';
import type { UsageEvent } from './runtime/types.ts';

const USAGE = `usage: gateway <command>
  check [file]        validate a config (default gateway.yaml); prints file:line:col: message; exit 1 on errors
  diff OLD NEW        what deploying config NEW changes against OLD; --json for programs; secrets only as
                      "changed"; exit 0 when nothing changes, 1 when something does, 2 on errors
  build               regenerate generated/ from gateway.yaml and schemas/
  start [options]     serve; --config FILE (default: generated tables of gateway.yaml), --port N, --host H,
                      --simulate (built-in simulated vendors; default when no vendor key is set),
                      --workers N (processes sharing the port), --drain-timeout S (default 30)
  dev [options]       start with listhen (pretty URL, reload on restart)`;

async function runCheck(file = 'gateway.yaml'): Promise<number> {
  const { problems } = await compileConfigFile(file);
  for (const problem of problems) console.log(formatProblem(problem));
  if (problems.length === 0) console.log(`${file}: ok`);
  return problems.length ? 1 : 0;
}

async function loadConfig(file?: string): Promise<CompiledConfig> {
  if (!file) return (await import('../generated/config.ts')).config;
  const { config, problems } = await compileConfigFile(file);
  if (!config) {
    for (const problem of problems) console.error(formatProblem(problem));
    process.exit(1);
  }
  return config;
}

function hasVendorKeys(config: CompiledConfig, env: NodeJS.ProcessEnv): boolean {
  return Object.values(config.vendors).some((v) => v.auth.kind !== 'none' && env[v.auth.env]);
}

async function runStart(args: string[], dev: boolean): Promise<number> {
  const { createLogger } = await import('./logger.ts');
  const { createGateway } = await import('./runtime/create-gateway.ts');
  const { SIMULATOR_CLIENT_KEY, simulateVendors } = await import('./simulate.ts');
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      simulate: { type: 'boolean' },
      'log-level': { type: 'string' },
      workers: { type: 'string' },
      'drain-timeout': { type: 'string' },
    },
  });
  const workers = Number(values.workers ?? 1);
  if (workers > 1 && !dev) {
    const { runWorkers } = await import('./workers.ts');
    if (runWorkers(workers)) return 0;
  }
  const logger = createLogger(values['log-level'] ?? process.env.GATEWAY_LOG_LEVEL ?? 'info');
  let config = await loadConfig(values.config);
  let env = process.env;
  const simulate = values.simulate ?? !hasVendorKeys(config, env);
  if (simulate) {
    const setup = await simulateVendors(config, env);
    config = setup.config;
    env = setup.env;
    logger.warn(`simulate mode: every vendor is a built-in simulator; client key: ${SIMULATOR_CLIENT_KEY}`);
  }
  const { openServices } = await import('./runtime/services.ts');
  const services = await openServices(config.server, env, logger);
  // One log line per request at `info`; below that level no usage event is built at all.
  const onUsage = logger.isLevelEnabled('info') ? [(event: UsageEvent) => logger.info(event, 'request')] : [];
  const gateway = createGateway({ config, env, services, onUsage });
  const port = values.port !== undefined ? Number(values.port) : config.server.port;
  const host = values.host ?? config.server.host;
  if (dev) {
    const { listen } = await import('listhen');
    const listener = await listen(gateway.server.listeners('request')[0] as never, { port, hostname: host, showURL: true });
    logger.info(`listening on ${listener.url.replace(/\/$/, '')} (dev; realtime WebSockets need start)`);
    return 0;
  }
  const url = await gateway.listen(port, host);
  logger.info(`listening on ${url}`);
  const drainMs = Number(values['drain-timeout'] ?? 30) * 1000;
  const stop = () => {
    logger.info(`draining ${gateway.inFlight()} request(s) for up to ${drainMs / 1000} s`);
    void gateway.close(drainMs).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'check') return runCheck(rest[0]);
  if (command === 'diff') return (await import('./config/run-diff.ts')).runDiff(rest);
  if (command === 'build') {
    const { build } = await import('../scripts/build.ts');
    await build(rest[0]);
    return 0;
  }
  if (command === 'start' || command === 'dev') return runStart(rest, command === 'dev');
  console.log(USAGE);
  return command ? 2 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
