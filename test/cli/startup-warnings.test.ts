import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { startCliGateway } from '../helpers/start-cli-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

/** Reads the JSON log lines a gateway process wrote. */
function readLogLines(output: string): { level: number; msg: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('gateway start says at start-up what cannot work', () => {
  let sim: Simulator;
  let config: WrittenConfig;
  beforeAll(async () => {
    sim = await startOpenAISimulator();
    config = await writeGatewayConfig((raw) => {
      raw.vendors.openai.base_url = sim.url;
    });
  });
  afterAll(async () => {
    await sim?.close();
    await config?.remove();
  });

  it('warns per vendor whose key is unset and, at error, that no client key is usable; requests then get 401', async () => {
    // A vendor key is set (so not simulate mode) but GATEWAY_API_KEY, the only client key, is not.
    const gateway = await startCliGateway(config.file, { OPENAI_API_KEY: SIMULATOR_KEYS.openai, GATEWAY_API_KEY: '' });
    try {
      const lines = readLogLines(gateway.output());
      const warnings = lines.filter((line) => line.level === 40).map((line) => line.msg);
      expect(warnings).toContain('vendor "anthropic": ANTHROPIC_API_KEY is not set; its models answer 503 vendor_not_configured');
      expect(warnings).toContain('vendor "jina": JINA_API_KEY is not set; its models answer 503 vendor_not_configured');
      expect(warnings.join('\n')).not.toContain('OPENAI_API_KEY');
      expect(lines.filter((line) => line.level === 50).map((line) => line.msg)).toEqual([
        'NO CLIENT KEY IS USABLE: none of GATEWAY_API_KEY is set; every request will be answered 401',
      ]);
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer anything', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(401);
      expect(sim.received).toEqual([]);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  }, 30_000);

  it('says none of it in simulate mode, where every key is supplied', async () => {
    const gateway = await startCliGateway(config.file, { GATEWAY_API_KEY: '' }, ['--simulate']);
    try {
      const output = gateway.output();
      expect(output).toContain('simulate mode');
      expect(output).not.toContain('is not set');
      expect(output).not.toContain('NO CLIENT KEY');
    } finally {
      await gateway.stop();
    }
  }, 30_000);
});
