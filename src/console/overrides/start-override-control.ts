import type { Logger } from 'pino';
import { GatewayError } from '../../errors.ts';
import type { OverrideControl, Overrides } from '../types.ts';
import type { OverrideStore } from './create-override-store.ts';
import { readOverrides } from './read-overrides.ts';

/** How often each process reads the stored overrides again: a change is in force everywhere within a second. */
export const OVERRIDE_POLL_MS = 400;

/** A key's part of the overrides, for the change log: never its digest. */
function describeKey(overrides: Overrides, name: string): Record<string, unknown> | null {
  const override = overrides.keys[name];
  const issued = overrides.issued.find((key) => key.name === name);
  if (!override && !issued) return null;
  return {
    ...(issued ? { issued: true, models: issued.models, limits: issued.limits ?? {}, ...(issued.budget ? { budget: issued.budget } : {}) } : {}),
    ...(override ?? {}),
  };
}

/** The store's answer, or 503 `overrides_not_stored` saying where it failed (a read-only folder, Redis down). */
async function reach<T>(operation: Promise<T>, where: string): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new GatewayError(503, 'overrides_not_stored', `The console overrides could not be kept in ${where} (${reason}); nothing changed. A read-only config folder needs server.store on Redis.`);
  }
}

/** A running {@link OverrideControl}: `close` stops its polling. */
export interface RunningOverrides extends OverrideControl {
  close(): void;
}

/**
 * Reads the stored overrides (a damaged store throws: the start stops rather than drop them), hands them
 * to `apply`, then reads the store again every {@link OVERRIDE_POLL_MS} and calls `apply` when the text
 * changed (another process wrote it). `change` writes through and applies at once; each change is logged
 * with the admin key's name and the key's override before and after.
 */
export async function startOverrideControl(store: OverrideStore, logger: Logger, apply: (overrides: Overrides) => void): Promise<RunningOverrides> {
  let text = await store.read();
  let current = readOverrides(text);
  apply(current);
  let busy = false;
  let warned = false;
  /** Counts this process's changes: a poll whose read began before one reads text older than it, and drops it. */
  let changes = 0;
  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      const changesBefore = changes;
      const next = await store.read();
      if (next !== text && changes === changesBefore) {
        current = readOverrides(next);
        text = next;
        apply(current);
      }
      warned = false;
    } catch (error) {
      if (!warned) logger.warn({ err: error }, `console overrides could not be read from ${store.where}; the last ones read stay in force`);
      warned = true;
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(poll, OVERRIDE_POLL_MS);
  timer.unref();
  return {
    current: () => current,
    async change(adminName, name, mutate) {
      const before = await reach(store.read().then(readOverrides), store.where);
      const after = mutate(structuredClone(before));
      const written = JSON.stringify(after);
      await reach(store.write(written), store.where);
      changes++;
      text = written;
      current = after;
      apply(after);
      logger.info({ admin: adminName, key: name, before: describeKey(before, name), after: describeKey(after, name) }, 'console override changed');
      return after;
    },
    close: () => clearInterval(timer),
  };
}
