import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../scripts/build.ts';
import { PROTOCOLS } from '../../src/protocols/index.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';

const CONFIG = `vendors:
  openai: { protocol: openai, base_url: https://api.openai.com/v1, auth: { bearer: env:OPENAI_API_KEY }, zone: eu-1 }
models:
  gpt-4o: { vendor: openai }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
`;

/** The registry with the openai folder's fragment given a new vendor field, `zone`. */
function withZoneField(): Record<string, ProtocolAdapter> {
  const openai = PROTOCOLS.openai as ProtocolAdapter;
  const vendorProperties = { ...openai.configSchema?.vendorProperties, zone: { type: 'string', description: 'A test field.' } };
  return { ...PROTOCOLS, openai: { ...openai, configSchema: { ...openai.configSchema, vendorProperties } } };
}

describe('npm run build after a protocol fragment changed', () => {
  it('accepts a config using the new field in one run: it checks with the schema it just composed, and types the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-one-build-'));
    const configFile = join(dir, 'gateway.yaml');
    const schemaFile = join(dir, 'gateway.schema.json');
    await writeFile(configFile, CONFIG);
    await expect(build(configFile, join(dir, 'before'))).rejects.toThrow('1 problem(s)');

    await build(configFile, join(dir, 'generated'), { registry: withZoneField(), schemaFile });
    const schema = JSON.parse(await readFile(schemaFile, 'utf8'));
    expect(schema.definitions.vendor.properties.zone).toEqual({ type: 'string', description: 'A test field.' });
    const types = await readFile(join(dir, 'generated', 'config-types.ts'), 'utf8');
    expect(types).toMatch(/\/\*\* @description A test field\. \*\/\s+zone\?: string;/);
  }, 60_000);
});
