import { readFileSync } from 'node:fs';
import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { CompiledConfig, KeyEntry, VendorEntry } from '../config/types.ts';
import { createRedactor, type Redactor } from './redact.ts';
import { createRouteMatcher } from './route-match.ts';
import { createUnroutedStyle } from './unrouted-style.ts';
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

function createVendor(vendor: VendorEntry, env: NodeJS.ProcessEnv, redactor: Redactor): RuntimeVendor {
  const url = new URL(vendor.baseUrl);
  const secret = vendor.auth.kind === 'none' ? undefined : env[vendor.auth.env];
  return {
    config: vendor,
    secret,
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    dispatcher: createDispatcher(vendor, url.origin),
    redactor,
  };
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
 * and swaps the pointer.
 */
export function createSnapshot(config: CompiledConfig, env: NodeJS.ProcessEnv = process.env): Snapshot {
  const keys = config.keys.map((k) => createKey(k, env)).filter((k): k is RuntimeKey => k !== undefined);
  const taskSecret = readTaskSecret(config, env, keys.map((k) => k.digest));
  const redactor = createRedactor(listSecrets(config, env, taskSecret));
  const vendors = new Map(Object.values(config.vendors).map((v) => [v.name, createVendor(v, env, redactor)]));
  return {
    config,
    vendors,
    models: new Map(Object.entries(config.models)),
    keys,
    match: createRouteMatcher(config.routes),
    getUnroutedStyle: createUnroutedStyle(config.routes),
    taskSecret,
    redactor,
  };
}

/** Closes every vendor connection pool of a snapshot. */
export async function closeSnapshot(snapshot: Snapshot): Promise<void> {
  await Promise.all([...snapshot.vendors.values()].map((v) => v.dispatcher.close().catch(() => undefined)));
}
