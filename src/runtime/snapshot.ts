import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { CompiledConfig, KeyEntry, VendorEntry } from '../config/types.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { createRedactor, type Redactor } from './redact.ts';
import { createRouteMatcher } from './route-match.ts';
import { createUnroutedStyle } from './unrouted-style.ts';
import { getSignatureOrigin } from '../translate/reasoning-signature.ts';
import { listSecrets, readKeyDigest, readTaskSecret } from './secrets.ts';
import type { RuntimeKey, RuntimeVendor, Snapshot } from './types.ts';

export { digestKey } from './secrets.ts';

function createDispatcher(vendor: VendorEntry, origin: string): Dispatcher {
  const options = {
    connections: vendor.connections,
    headersTimeout: vendor.timeouts.headersMs,
    bodyTimeout: vendor.timeouts.bodyMs,
    keepAliveTimeout: 30_000,
  };
  const tls = vendor.caFile ? { ca: readFileSync(vendor.caFile) } : undefined;
  // Through a proxy the vendor's TLS settings are `requestTls` (the tunnelled connection), not `connect`.
  if (vendor.proxy) return new ProxyAgent({ uri: vendor.proxy, ...options, ...(tls ? { requestTls: tls } : {}) });
  return tls ? new Agent({ ...options, connect: tls }) : new Pool(origin, options);
}

/** Whether a vendor of the previous snapshot can lend its pool: same settings, same secret, same CA file bytes. */
function canKeepPool(previous: RuntimeVendor | undefined, vendor: VendorEntry, secret: string | undefined): previous is RuntimeVendor {
  if (!previous || previous.secret !== secret || !isDeepStrictEqual(previous.config, vendor)) return false;
  if (!vendor.caFile) return true;
  try {
    return readFileSync(vendor.caFile).equals(previous.caBytes ?? Buffer.alloc(0));
  } catch {
    return false;
  }
}

function createVendor(vendor: VendorEntry, env: NodeJS.ProcessEnv, redactor: Redactor, previous?: RuntimeVendor): RuntimeVendor {
  const url = new URL(vendor.baseUrl);
  const signer = vendor.auth.kind === 'signed' ? getProtocolAdapter(vendor.protocol).createSigner?.(vendor, env) : undefined;
  // A signed vendor without a signer (a credential unset) has no secret: its calls answer 503.
  const secret = vendor.auth.kind === 'none' || (vendor.auth.kind === 'signed' && !signer) ? undefined : env[vendor.auth.env];
  // A reload keeps the connection pool of a vendor whose settings and secret did not change.
  const kept = canKeepPool(previous, vendor, secret);
  return {
    config: vendor,
    secret,
    ...(signer ? { signer } : {}),
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    signatureOrigin: getSignatureOrigin(vendor.protocol, vendor.name),
    dispatcher: kept ? previous.dispatcher : createDispatcher(vendor, url.origin),
    redactor,
    ...(vendor.caFile ? { caBytes: kept ? previous.caBytes : readCa(vendor.caFile) } : {}),
  };
}

function readCa(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function compileGlobs(patterns: string[]): (model: string) => boolean {
  if (patterns.includes('*')) return () => true;
  const source = patterns.map((p) => p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*'));
  const pattern = new RegExp(`^(?:${source.join('|')})$`);
  const cache = new Map<string, boolean>();
  return (model) => {
    let allowed = cache.get(model);
    if (allowed === undefined) {
      allowed = pattern.test(model);
      if (cache.size < 100_000) cache.set(model, allowed);
    }
    return allowed;
  };
}

function createKey(key: KeyEntry, env: NodeJS.ProcessEnv): RuntimeKey | undefined {
  const digest = readKeyDigest(key, env);
  if (!digest) return undefined;
  return { config: key, digest, allows: compileGlobs(key.models) };
}

/**
 * Builds the immutable runtime snapshot of a compiled config: vendor pools with their secrets,
 * key digests, model map, route matcher and the redactor of every secret held. A reload builds a new one
 * from the `previous` snapshot (its generation + 1, the pools of unchanged vendors kept) and swaps the pointer;
 * secrets are read from `env` again. `keptTaskSecret` signs task ids when the environment names no task secret
 * (it does not change with the keys, so task ids outlive a key issued or disabled).
 */
export function createSnapshot(config: CompiledConfig, env: NodeJS.ProcessEnv = process.env, previous?: Snapshot, keptTaskSecret?: string): Snapshot {
  const keys = config.keys.map((k) => createKey(k, env)).filter((k): k is RuntimeKey => k !== undefined);
  const taskSecret = readTaskSecret(config, env, keptTaskSecret);
  const redactor = createRedactor(listSecrets(config, env, taskSecret));
  const vendors = new Map(
    Object.values(config.vendors).map((v) => [v.name, createVendor(v, env, redactor, previous?.vendors.get(v.name))]),
  );
  return {
    config,
    generation: previous ? previous.generation + 1 : 1,
    vendors,
    models: new Map(Object.entries(config.models)),
    keys,
    match: createRouteMatcher(config.routes),
    getUnroutedStyle: createUnroutedStyle(config.routes),
    taskSecret,
    redactor,
  };
}

/** Closes every vendor connection pool of a snapshot (pools it shares with a later snapshot too). */
export async function closeSnapshot(snapshot: Snapshot): Promise<void> {
  await Promise.all([...snapshot.vendors.values()].map((v) => v.dispatcher.close().catch(() => undefined)));
}
