import type { ValueStore } from '../limits/store.ts';

/** Bounds of {@link createMemoryValues}. */
export interface MemoryValuesOptions {
  /** Most values kept at once (default 20 000); the oldest are dropped first. */
  maxEntries?: number;
  /** Most bytes (UTF-16 code units of keys and values) kept at once (default 64 MiB). */
  maxBytes?: number;
  /** Clock in epoch milliseconds (tests inject their own). */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
  bytes: number;
}

/**
 * Values kept in this process (no `server.store` Redis): bounded by count and by size, oldest written
 * dropped first, each expiring after its TTL. One process only: other processes cannot read them.
 */
export function createMemoryValues(options: MemoryValuesOptions = {}): ValueStore {
  const maxEntries = options.maxEntries ?? 20_000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const evict = (): void => {
    for (const key of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) return;
      remove(key);
    }
  };
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        remove(key);
        return undefined;
      }
      return entry.value;
    },
    async set(list, ttlMs) {
      const expiresAt = now() + ttlMs;
      for (const [key, value] of list) {
        remove(key);
        const entry = { value, expiresAt, bytes: key.length + value.length };
        entries.set(key, entry);
        bytes += entry.bytes;
      }
      evict();
    },
    async delete(keys) {
      for (const key of keys) remove(key);
    },
    async keep(key, value, ttlMs) {
      const held = await this.get(key);
      if (held !== undefined) return held;
      await this.set([[key, value]], ttlMs);
      return value;
    },
  };
}
