import { Writable } from 'node:stream';
import { pino } from 'pino';
import { compileConfigFile } from '../../src/config/index.ts';
import type { CompiledConfig, ModelEntry, Protocol, VendorEntry } from '../../src/config/types.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/create-gateway.ts';
import { createServices } from '../../src/runtime/services.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { SIMULATOR_CLIENT_KEY, simulateVendors } from '../../src/simulate.ts';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { HOSTILE_MODES, startHostileVendor, type HostileMode } from '../helpers/hostile-vendor.ts';
import { SCRIPTED_BEDROCK, SCRIPTED_JSON, startScriptedVendor, type ScriptedVendor } from '../helpers/scripted-vendor.ts';
import { startRecordingRelay } from './recording-relay.ts';
import type { VendorCall } from './vendor-call.ts';

/** Client keys of the fuzz gateway: `main` may use every model without limits; `limited` has tight ones. */
export const FUZZ_CLIENT_KEYS = { main: SIMULATOR_CLIENT_KEY, other: 'sk-fuzz-default-7d41c0e93b', limited: 'sk-fuzz-limited-b2e95a16f8', burst: 'sk-fuzz-burst-95c3e07d2a' };
/** The concurrency limit of the `burst` client key. */
export const BURST_CONCURRENCY = 8;
const TASK_SECRET = 'fuzz-task-secret-4f0c9e2a51d7';
/** How long a hostile vendor may keep the gateway waiting (headers and silences): hangs end quickly. */
export const HOSTILE_TIMEOUT_MS = 700;
/** Body limit of the fuzz gateway: small, so that oversized uploads are cheap to send. */
export const FUZZ_BODY_LIMIT = 256 * 1024;
const HOSTILE_PROTOCOLS: Protocol[] = ['openai', 'anthropic', 'gemini', 'dashscope'];
/** Models served by the scripted Bedrock (its answer set per case): signed with SigV4 and a session token, or with a Bedrock API key. */
export const SCRIPTED_BEDROCK_MODELS = { signed: 'hostile-bedrock-signed', key: 'hostile-bedrock-key' };
/** Models served by the scripted vendor of each JSON protocol (its answer set per case, the same vendor for all three). */
export const SCRIPTED_MODELS = { openai: 'scripted-openai', anthropic: 'scripted-anthropic', gemini: 'scripted-gemini' } as const;
/** The scripted Bedrock's credentials, each a secret the gateway holds. */
const SCRIPTED_BEDROCK_ENV = { FUZZ_BEDROCK_SECRET: 'fuzz-bedrock-secret-7c2e91d04a', FUZZ_BEDROCK_ID: 'AKIAFUZZBEDROCK0001', FUZZ_BEDROCK_TOKEN: 'fuzz-bedrock-session-token-3b8e05f1c6', FUZZ_BEDROCK_API_KEY: 'fuzz-bedrock-api-key-9a4d27e6b3' };

/** A gateway over recorded simulators and hostile vendors, with every secret, log line and crash kept. */
export interface FuzzGateway {
  url: string;
  port: number;
  gateway: Gateway;
  /** The compiled config it serves (its route table drives the generators). */
  config: CompiledConfig;
  /** Every secret the gateway holds, by name: vendor keys, client keys, the task secret. */
  secrets: Record<string, string>;
  /** The scripted Bedrock behind {@link SCRIPTED_BEDROCK_MODELS}: a case sets its answer. */
  bedrock: ScriptedVendor;
  /** The scripted vendor behind {@link SCRIPTED_MODELS}: a case sets its answer. */
  scripted: ScriptedVendor;
  /** Every vendor call, in arrival order. */
  calls: VendorCall[];
  events: UsageEvent[];
  /** Everything logged so far, in pieces (the request log, the gateway's logger, stdout and stderr of this process). */
  logs: string[];
  /** uncaughtException and unhandledRejection raised in this process since start. */
  crashes: string[];
  close(): Promise<void>;
}

/** The id of the model served by the hostile vendor of `protocol` misbehaving as `mode`. */
export function getHostileModel(protocol: Protocol, mode: HostileMode): string {
  return `hostile-${protocol}-${mode}`;
}

function defineModel(id: string, vendor: string, upstream: string, images: boolean): ModelEntry {
  const model: ModelEntry = {
    id,
    targets: [{ vendor, upstream, weight: 1 }],
    fallback: [],
    routing: { retries: 0, fallbackOn: ['429', '5xx', 'timeout', 'connect'], cooldownAfter: 0, cooldownMs: 30_000 },
    chat: { defaultMaxTokens: 256, strict: false },
    ownedBy: vendor,
  };
  if (images) model.images = { shape: 'envelope', splitN: false, styleUnsupported: 'reject', rehost: false, b64FromUrl: false, b64Only: false, pollTimeoutMs: 2000, transform: 'images-a-to-envelope' };
  return model;
}

function addHostileVendors(config: CompiledConfig): CompiledConfig {
  const vendors = { ...config.vendors };
  const models = { ...config.models };
  for (const protocol of HOSTILE_PROTOCOLS) {
    const template = Object.values(config.vendors).find((vendor) => vendor.protocol === protocol)!;
    const name = `hostile-${protocol}`;
    vendors[name] = { ...template, name, timeouts: { headersMs: HOSTILE_TIMEOUT_MS, bodyMs: HOSTILE_TIMEOUT_MS } };
    for (const mode of HOSTILE_MODES) models[getHostileModel(protocol, mode)] = defineModel(getHostileModel(protocol, mode), name, `mode-${mode}`, protocol === 'dashscope');
  }
  for (const [kind, template] of [['signed', 'bedrock'], ['key', 'bedrock-api-key']] as const) {
    const name = SCRIPTED_BEDROCK_MODELS[kind];
    vendors[name] = { ...config.vendors[template], name, timeouts: { headersMs: HOSTILE_TIMEOUT_MS, bodyMs: HOSTILE_TIMEOUT_MS } };
    models[name] = defineModel(name, name, 'us.anthropic.claude-sonnet-4-20250514-v1:0', false);
  }
  for (const [protocol, name] of Object.entries(SCRIPTED_MODELS)) {
    const template = Object.values(config.vendors).find((vendor) => vendor.protocol === protocol)!;
    vendors[name] = { ...template, name, timeouts: { headersMs: HOSTILE_TIMEOUT_MS, bodyMs: HOSTILE_TIMEOUT_MS } };
    models[name] = defineModel(name, name, 'scripted-model', false);
  }
  const keys: CompiledConfig['keys'] = [
    ...config.keys,
    { name: 'fuzz-limited', secret: { env: 'FUZZ_LIMITED_KEY' }, models: ['gpt-*', 'claude-*'], limits: { rpm: 5, concurrency: 1 }, strict: true },
    { name: 'fuzz-burst', secret: { env: 'FUZZ_BURST_KEY' }, models: ['*'], limits: { concurrency: BURST_CONCURRENCY }, strict: false },
  ];
  return { ...config, vendors, models, keys, server: { ...config.server, bodyLimitBytes: FUZZ_BODY_LIMIT, defaultLimits: {} } };
}

/** Captures this process's stdout and stderr writes (a gateway that logs with console or process streams). */
function captureProcessOutput(into: string[]): () => void {
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  for (const stream of streams) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      into.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
  return () => streams.forEach((stream, i) => (stream.write = originals[i]));
}

/**
 * Starts the fuzz gateway: gateway.yaml plus one hostile vendor per protocol (models `hostile-<protocol>-<mode>`,
 * short timeouts), every simulator behind a recording relay, no default limits, a 256 KiB body limit.
 */
export async function startFuzzGateway(): Promise<FuzzGateway> {
  const { config: base, problems } = await compileConfigFile('gateway.yaml');
  if (!base) throw new Error(problems.map((p) => p.message).join('\n'));
  const env = { GATEWAY_API_KEY: FUZZ_CLIENT_KEYS.other, GATEWAY_TASK_SECRET: TASK_SECRET, FUZZ_LIMITED_KEY: FUZZ_CLIENT_KEYS.limited, FUZZ_BURST_KEY: FUZZ_CLIENT_KEYS.burst };
  const setup = await simulateVendors(addHostileVendors(base), env);
  const calls: VendorCall[] = [];
  const secrets: Record<string, string> = { 'task secret': TASK_SECRET };
  for (const [name, key] of Object.entries(FUZZ_CLIENT_KEYS)) secrets[`client key ${name}`] = key;
  for (const [name, key] of Object.entries(SIMULATOR_KEYS)) secrets[`vendor key ${name}`] = key;
  const simUrl = (protocol: Protocol): string => setup.sims[protocol].url;
  const closers: (() => Promise<void>)[] = [];
  const vendors: Record<string, VendorEntry> = {};
  const bedrock = await startScriptedVendor('hostile-bedrock', calls, SCRIPTED_BEDROCK);
  const scripted = await startScriptedVendor('scripted', calls, SCRIPTED_JSON);
  closers.push(bedrock.close, scripted.close);
  Object.assign(setup.env, SCRIPTED_BEDROCK_ENV);
  for (const [name, value] of Object.entries(SCRIPTED_BEDROCK_ENV)) if (name !== 'FUZZ_BEDROCK_ID') secrets[`vendor credential ${name}`] = value;
  for (const [name, vendor] of Object.entries(setup.config.vendors)) {
    if (name === SCRIPTED_BEDROCK_MODELS.signed) {
      vendors[name] = { ...vendor, baseUrl: bedrock.url, auth: { kind: 'signed', scheme: 'sigv4', env: 'FUZZ_BEDROCK_SECRET', idEnv: 'FUZZ_BEDROCK_ID', tokenEnv: 'FUZZ_BEDROCK_TOKEN' } };
    } else if (name === SCRIPTED_BEDROCK_MODELS.key) {
      vendors[name] = { ...vendor, baseUrl: bedrock.url, auth: vendor.auth.kind === 'none' ? vendor.auth : { ...vendor.auth, env: 'FUZZ_BEDROCK_API_KEY' } };
    } else if (name.startsWith('scripted-')) {
      const secretEnv = `FUZZ_SCRIPTED_${vendor.protocol.toUpperCase()}_KEY`;
      secrets[`vendor key ${name}`] = setup.env[secretEnv] = `sv-${vendor.protocol}-4e81b07c2d95a3`;
      const auth = vendor.auth.kind === 'none' ? vendor.auth : { ...vendor.auth, env: secretEnv };
      vendors[name] = { ...vendor, auth, baseUrl: scripted.url + new URL(vendor.baseUrl).pathname.replace(/\/$/, '') };
    } else if (name.startsWith('hostile-')) {
      const hostile = await startHostileVendor(name, vendor.protocol, calls);
      closers.push(hostile.close);
      const secretEnv = `FUZZ_HOSTILE_${vendor.protocol.toUpperCase()}_KEY`;
      secrets[`vendor key ${name}`] = setup.env[secretEnv] = `hv-${vendor.protocol}-${name.length}c9f2e7a3d18b5`;
      const auth = vendor.auth.kind === 'none' ? vendor.auth : { ...vendor.auth, env: secretEnv };
      vendors[name] = { ...vendor, auth, baseUrl: hostile.url + new URL(vendor.baseUrl).pathname.replace(/\/$/, '') };
    } else {
      const relay = await startRecordingRelay(name, simUrl(vendor.protocol), calls);
      closers.push(relay.close);
      vendors[name] = { ...vendor, baseUrl: relay.url, timeouts: { headersMs: 5000, bodyMs: 5000 } };
    }
  }
  const config: CompiledConfig = { ...setup.config, vendors };
  const logs: string[] = [];
  const restoreOutput = captureProcessOutput(logs);
  const logger = pino({ level: 'debug', base: undefined }, new Writable({ write: (chunk, _encoding, done) => (logs.push(String(chunk)), done()) }));
  const events: UsageEvent[] = [];
  const crashes: string[] = [];
  const onCrash = (kind: string) => (error: unknown) => crashes.push(`${kind}: ${(error as Error)?.stack ?? String(error)}`);
  const onException = onCrash('uncaughtException');
  const onRejection = onCrash('unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  // `logger` is for a gateway that takes one (causes of 500s are logged there); today's ignores it.
  const options: GatewayOptions & { logger: typeof logger } = {
    config,
    env: setup.env,
    logger,
    services: createServices(config.server, undefined, logger),
    onUsage: [(event) => (events.push(event), logger.info(event, 'request'))],
  };
  const gateway = createGateway(options);
  const url = await gateway.listen(0, '127.0.0.1');
  return {
    url,
    port: Number(new URL(url).port),
    gateway,
    config,
    secrets,
    bedrock,
    scripted,
    calls,
    events,
    logs,
    crashes,
    async close() {
      await gateway.close(0).catch(() => undefined);
      await Promise.all([setup.close(), ...closers.map((close) => close())]);
      restoreOutput();
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    },
  };
}
