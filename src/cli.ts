/**
 * The `gateway` command: `build`, `check [file]`, `start [--config file] [--port n] [--simulate]`, `dev`.
 */
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { handleSignals } from './cli/handle-signals.ts';
import { readStartOptions } from './cli/read-start-options.ts';
import { startReloads, type Reloads } from './cli/start-reloads.ts';
import type { CompiledConfig } from './config/types.ts';

const USAGE = `usage: gateway <command>
  check [file]        validate a config (default gateway.yaml); prints file:line:col: message; exit 1 on errors
  diff OLD NEW        what deploying config NEW changes against OLD; --json for programs; secrets only as
                      "changed"; exit 0 when nothing changes, 1 when something does, 2 on errors
  diff --overrides F  what the console's overrides (read from F's server.store) change over config F;
                      same output, --json and exit codes
  build               regenerate generated/ from gateway.yaml and schemas/
  start [options]     serve; --config FILE (default: generated tables of gateway.yaml), --port N, --host H,
                      --simulate (built-in simulated vendors; default when no vendor key is set),
                      --workers N (processes sharing the port), --drain-timeout S (default 30),
                      --log-level L (default info), --watch (reload when the --config file changes;
                      SIGHUP reloads it too); with server.admin in the config, the admin
                      listener (/metrics, /healthz, /readyz, /admin/) starts too
  dev [options]       start with listhen (pretty URL, reload on restart)
  --help, -h          this text`;

/** The folder above this module: the checkout for src/cli.ts and for a bundle in dist/. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function runCheck(file = 'gateway.yaml'): Promise<number> {
  const { compileConfigFile, formatProblem } = await import('./config/index.ts');
  const { problems } = await compileConfigFile(file);
  for (const problem of problems) console.log(formatProblem(problem));
  if (problems.length === 0) console.log(`${file}: ok`);
  return problems.length ? 1 : 0;
}

/** The config to serve, or a message saying why it cannot be served. */
async function loadConfig(file?: string): Promise<CompiledConfig | string> {
  if (!file) {
    const generated = await import('../generated/config.ts');
    const { findStaleGenerated } = await import('./cli/find-stale-generated.ts');
    return (await findStaleGenerated(ROOT, (generated as { sourcesHash?: string }).sourcesHash)) ?? generated.config;
  }
  // The config compiler (yaml, ajv's compiler, the JSON Schemas) is loaded only here: serving the built tables never loads it.
  const { compileConfigFile, formatProblem } = await import('./config/index.ts');
  const { config, problems } = await compileConfigFile(file);
  return config ?? problems.map(formatProblem).join('\n');
}

function hasVendorKeys(config: CompiledConfig, env: NodeJS.ProcessEnv): boolean {
  return Object.values(config.vendors).some((v) => v.auth.kind !== 'none' && env[v.auth.env]);
}

async function runStart(args: string[], dev: boolean): Promise<number> {
  const parsed = readStartOptions(args);
  if ('error' in parsed) {
    console.error(`${parsed.error}\n${USAGE}`);
    return 2;
  }
  const { options } = parsed;
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const { createLogger, setLogSecrets } = await import('./logger.ts');
  const { listSecrets } = await import('./runtime/secrets.ts');
  const logger = createLogger(options.logLevel ?? process.env.GATEWAY_LOG_LEVEL ?? 'info');
  // A worker of `--workers N --config FILE` serves the config its primary compiled (the one serving now).
  const fromPrimary = cluster.isWorker && options.config ? (await import('./reload/share-with-workers.ts')).receiveConfigFromPrimary() : undefined;
  const shared = await fromPrimary?.first;
  const loaded = shared?.config ?? (await loadConfig(options.config));
  if (typeof loaded === 'string') {
    console.error(loaded);
    return 1;
  }
  let config = loaded;
  let env = process.env;
  const simulate = options.simulate ?? !hasVendorKeys(config, env);
  if (!simulate && !cluster.isWorker) {
    const { getStartupWarnings } = await import('./cli/get-startup-warnings.ts');
    for (const { level, message } of getStartupWarnings(config, env)) logger[level](message);
  }
  if (options.workers > 1 && !dev) {
    const { runWorkers } = await import('./workers.ts');
    let stopping = false;
    let reloads: Reloads | undefined;
    let getConfig = () => loaded;
    if (cluster.isPrimary && options.config) {
      // Reloads compile once, here, and go to every worker.
      const { shareConfigWithWorkers } = await import('./reload/share-with-workers.ts');
      const onReload = config.server.admin ? (await import('./metrics/index.ts')).recordReload : undefined;
      const shared = shareConfigWithWorkers(config);
      getConfig = shared.getConfig;
      reloads = await startReloads({ file: options.config, watch: options.watch, logger, onReload, ...shared });
    }
    const onStop = () => {
      stopping = true;
      reloads?.close();
    };
    if (runWorkers(options.workers, logger, onStop, reloads?.hangup)) {
      // The primary serves the admin listener: the sum of its workers' metrics.
      const { admin } = config.server;
      if (admin) {
        const { createClusterSources, startAdminListener } = await import('./admin/index.ts');
        const configDir = options.config ? dirname(options.config) : '.';
        const consoleSources = config.server.console
          ? await (await import('./console/start-cluster-console.ts')).startClusterConsole(getConfig, env, configDir, logger)
          : undefined;
        const sources = { ...createClusterSources(getConfig, env, () => stopping), reloader: reloads?.reloader, logger, console: consoleSources };
        const listener = await startAdminListener(sources, admin.host, admin.port);
        logger.info(`admin listener on ${listener.url}`);
      }
      return 0;
    }
  }
  const { createGateway } = await import('./gateway/create-gateway.ts');
  const { SIMULATOR_CLIENT_KEY, simulateVendors } = await import('./simulate.ts');
  let simulators: Awaited<ReturnType<typeof simulateVendors>>['sims'] | undefined;
  if (simulate) {
    const setup = await simulateVendors(config, env);
    config = setup.config;
    env = setup.env;
    simulators = setup.sims;
    logger.warn(`simulate mode: every vendor is a built-in simulator; client key: ${SIMULATOR_CLIENT_KEY}`);
  }
  // Every secret ever served stays redacted: requests still on a replaced config may log its secrets.
  const secrets = new Set(listSecrets(config, env));
  setLogSecrets(logger, secrets);
  const { openServices } = await import('./runtime/services.ts');
  const services = await openServices(config.server, env, logger, options.config ? dirname(options.config) : '.');
  const { readKeptTaskSecret } = await import('./cli/read-kept-task-secret.ts');
  const taskSecret = await readKeptTaskSecret(config, env, services.store.values, options.config ? dirname(options.config) : '.', logger);
  if (taskSecret) secrets.add(taskSecret);
  setLogSecrets(logger, secrets);
  // One log line per request at `info`; below that level (and without metrics or traces) no usage event is built.
  const { createRequestLog } = await import('./cli/log-request.ts');
  const onUsage = createRequestLog(logger);
  // Metrics only with the admin listener (in a worker, the primary serves the sum over workers).
  const metricsModule = config.server.admin ? await import('./metrics/index.ts') : undefined;
  const metrics = metricsModule?.createGatewayMetrics();
  if (metrics) onUsage.push(metrics.record);
  // Traces only with the standard OTLP variable set: the OpenTelemetry packages are loaded only then.
  const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    ? await (await import('./tracing/create-trace-sink.ts')).createTraceSink(process.env)
    : undefined;
  if (tracing) onUsage.push(tracing.record);
  // The console (server.console): a usage feed, and overrides kept in server.store, applied over gateway.yaml's config (`base`).
  let base = { config, env };
  let consoleRuntime: import('./console/start-console.ts').ConsoleRuntime | undefined;
  if (config.server.console) {
    const { startConsole } = await import('./console/start-console.ts');
    consoleRuntime = await startConsole(services.store.values, options.config ? dirname(options.config) : '.', logger, () => {
      // A worker of a --config primary keeps the primary's number: the primary numbers the configs of every worker,
      // and a local +1 here would make the number of its next reload go backwards.
      const generation = fromPrimary ? gateway.getSnapshot().generation : undefined;
      const applied = gateway.reload(consoleRuntime!.merge(base.config), { env: base.env, generation });
      logger.info(`console overrides changed: generation ${applied} serves new requests`);
    });
    // With --workers the primary serves the console: a worker sends it its rows.
    onUsage.push(cluster.isWorker ? (await import('./console/forward-usage.ts')).forwardUsageToPrimary() : consoleRuntime.feed.record);
  }
  const gateway = createGateway({ config: consoleRuntime?.merge(config) ?? config, env, services, onUsage, generation: shared?.generation, taskSecret });
  metrics?.watch({ getSnapshot: gateway.getSnapshot, inFlight: gateway.inFlight, streamsInFlight: gateway.streamsInFlight, storeStats: services.store.stats });
  /** Serves a newly compiled config: secrets read again from the environment, the log told the new ones. */
  const applyConfig = async (compiled: CompiledConfig, generation?: number): Promise<number> => {
    const next = simulators ? await simulateVendors(compiled, process.env, { running: simulators }) : { config: compiled, env: process.env };
    base = next;
    const applied = gateway.reload(consoleRuntime?.merge(next.config) ?? next.config, { env: next.env, generation });
    for (const secret of listSecrets(next.config, next.env)) secrets.add(secret);
    setLogSecrets(logger, secrets);
    return applied;
  };
  // Without --config, SIGHUP logs that reload needs it (handle-signals.ts).
  let hangup: (() => void) | undefined;
  let reloads: Reloads | undefined;
  if (fromPrimary) {
    fromPrimary.onReload(({ config: next, generation }) => {
      applyConfig(next, generation).then(
        (applied) => logger.info(`reloaded by the primary: generation ${applied} serves new requests`),
        (error: Error) => logger.error({ err: error }, 'reload from the primary failed'),
      );
    });
    hangup = () => logger.info('SIGHUP reached a worker: the primary process reloads every worker');
  } else if (options.config && !dev) {
    const getGeneration = () => gateway.getSnapshot().generation;
    reloads = await startReloads({ file: options.config, watch: options.watch, apply: applyConfig, getGeneration, logger, onReload: metricsModule?.recordReload });
    hangup = reloads.hangup;
  }
  const port = options.port ?? config.server.port;
  const host = options.host ?? config.server.host;
  if (dev) {
    const { listen } = await import('listhen');
    const listener = await listen(gateway.server.listeners('request')[0] as never, { port, hostname: host, showURL: true });
    logger.info(`listening on ${listener.url.replace(/\/$/, '')} (dev; realtime WebSockets need start)`);
    return 0;
  }
  handleSignals(logger, (signal) => {
    reloads?.close();
    logger.info(`${signal}: draining ${gateway.inFlight()} request(s) for up to ${options.drainMs / 1000} s`);
    gateway.close(options.drainMs).then(
      async () => {
        await tracing?.close().catch((error: Error) => logger.warn({ err: error }, 'trace export failed at exit'));
        logger.info('drained; exiting');
        process.exit(0);
      },
      (error: Error) => {
        logger.error({ err: error }, 'drain failed');
        process.exit(1);
      },
    );
  }, hangup);
  const url = await gateway.listen(port, host);
  logger.info(`listening on ${url}`);
  const { admin } = config.server;
  if (admin && metrics && !cluster.isWorker) {
    const { createGatewaySources, startAdminListener } = await import('./admin/index.ts');
    const sources = {
      ...createGatewaySources(gateway, services, metrics),
      reloader: reloads?.reloader,
      logger,
      console: consoleRuntime?.createSources(() => gateway.getSnapshot().config, () => base.config, { getEnv: () => base.env, services, onUsage }),
    };
    const listener = await startAdminListener(sources, admin.host, admin.port);
    logger.info(`admin listener on ${listener.url}`);
  }
  // Written now, not with the next 3 KB of lines: supervisors and tests wait for this line.
  logger.flush();
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (command === 'start' || command === 'dev') return runStart(rest, command === 'dev');
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (command === 'check') return runCheck(rest[0]);
  if (command === 'diff') return (await import('./config/run-diff.ts')).runDiff(rest);
  if (command === 'build') {
    const { build } = await import('../scripts/build.ts');
    await build(rest[0]);
    return 0;
  }
  console.error(`unknown command "${command}"\n${USAGE}`);
  return 2;
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
