import { dirname } from 'node:path';
import { checkConfig } from '../../config/check.ts';
import { diffConfigs, type ConfigChange } from '../../config/diff.ts';
import { listSchemaIds } from '../../config/index.ts';
import { readConfigFile, type Problem } from '../../config/load.ts';
import { getShapeValidator } from '../../config/shape-validator.ts';
import type { ValueStore } from '../../limits/store.ts';
import { applyOverridesToYaml } from './apply-overrides-to-yaml.ts';
import { createOverrideStore } from './create-override-store.ts';
import { readOverrides } from './read-overrides.ts';

/** The overrides' changes over a config file, or the problems that stop them being read. */
export interface OverridesDiff {
  changes: ConfigChange[];
  problems: Problem[];
  /** Where the overrides were read: `redis` or the file's path. */
  where?: string;
}

/** `server.store` of the parsed file: the env variable of its Redis URL, or undefined for the memory store. */
function readStoreEnv(value: unknown): string | undefined {
  const store = (value as { server?: { store?: unknown } })?.server?.store;
  return typeof store === 'string' && store.startsWith('env:') ? store.slice(4) : undefined;
}

/**
 * What the console's overrides change over `file` (`gateway diff --overrides FILE`): the file checked as
 * `gateway check` does, the overrides read from its `server.store` (the Redis value, or the
 * `.gateway-overrides.json` beside it), and each overridden key diffed in YAML terms (secrets and digests
 * only as `(secret)`). `openValues` opens the Redis values of a URL (closed by the returned `close`).
 */
export async function diffOverrides(
  file: string,
  env: NodeJS.ProcessEnv,
  openValues: (url: string) => Promise<{ values: ValueStore; close(): Promise<void> }>,
): Promise<OverridesDiff> {
  const problem = (message: string): OverridesDiff => ({ changes: [], problems: [{ file, line: 1, col: 1, message }] });
  let loaded;
  try {
    loaded = await readConfigFile(file);
  } catch (error) {
    return problem(`cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const problems = checkConfig(loaded, await listSchemaIds(), getShapeValidator());
  if (problems.length) return { changes: [], problems };
  const storeEnv = readStoreEnv(loaded.value);
  if (storeEnv && !env[storeEnv]) return problem(`server.store names env:${storeEnv}, which is not set`);
  const opened = storeEnv ? await openValues(env[storeEnv]!) : undefined;
  try {
    const store = createOverrideStore(opened?.values, dirname(file));
    const overrides = readOverrides(await store.read());
    return { changes: diffConfigs(loaded.value, applyOverridesToYaml(loaded.value, overrides)), problems: [], where: store.where };
  } catch (error) {
    return problem(`cannot read the console overrides (${(error as Error).message})`);
  } finally {
    await opened?.close();
  }
}
