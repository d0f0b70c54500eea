import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** A config file written for a test, and a way to remove it. */
export interface WrittenConfig {
  file: string;
  remove(): Promise<void>;
}

/**
 * Writes a copy of the default gateway.yaml, changed by `edit` (which gets the parsed YAML and changes it
 * in place), into a temporary directory: a config for `gateway start --config` in a test.
 */
export async function writeGatewayConfig(edit: (raw: any) => void): Promise<WrittenConfig> {
  const raw = parse(await readFile('gateway.yaml', 'utf8'));
  edit(raw);
  const dir = await mkdtemp(join(tmpdir(), 'gateway-config-'));
  const file = join(dir, 'gateway.yaml');
  await writeFile(file, stringify(raw));
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}
