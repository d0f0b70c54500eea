import type { KeyEntry } from '../../src/config/types.ts';
import type { createLimiter } from '../../src/limits/limiter.ts';

/** A client key entry with these limits, for limiter tests. */
export function makeKey(name: string, limits: KeyEntry['limits']): KeyEntry {
  return { name, secret: { env: 'UNUSED' }, models: ['*'], limits, strict: false };
}

/** Admits a request and takes its concurrency slot, as the gateway does once the body is in. */
export async function take(limiter: ReturnType<typeof createLimiter>, key: KeyEntry) {
  const admission = await limiter.admit(key);
  await admission.acquire();
  return admission;
}
