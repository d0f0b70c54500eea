import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { startCliGateway } from '../helpers/start-cli-gateway.ts';
import { startPolicyGateway } from '../helpers/start-policy-gateway.ts';
import { writeGatewayConfig } from '../helpers/write-gateway-config.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { runAlone } from '../helpers/run-alone.ts';

/** The drain on shutdown: new connections refused, streams in flight finished or cut at the drain deadline. */

const SHARED_KEY = 'sk-shared-limit-test';


/** Multi-process / load test: never beside another heavy test file. */
runAlone();
describe('shutdown drain', () => {
  /** Resolves true when a new TCP connection to `url` is refused. */
  function isRefused(url: string): Promise<boolean> {
    const { port } = new URL(url);
    return new Promise((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
  }

  /** Starts a slow chat stream and resolves once its first bytes arrived, with the rest of it to come. */
  async function startSlowStream(url: string, key: string, model: string) {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'a b c d e f g h i j' }] }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    const rest = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return { text, broken: false };
          text += decoder.decode(value, { stream: true });
        }
      } catch {
        return { text, broken: true };
      }
    })();
    return { rest };
  }

  it('gateway.close(drainMs) refuses new connections and lets a stream in flight finish', async () => {
    const gw = await startPolicyGateway({ slow: { streamEvents: 8, streamIntervalMs: 60 } });
    try {
      const slow = { ...gw.config.models['sim-openai-chat'], id: 'slow', targets: [{ vendor: 'openai-slow', upstream: 'slow', weight: 1 }] };
      gw.gateway.reload({ ...gw.config, models: { ...gw.config.models, slow } });
      const { rest } = await startSlowStream(gw.url, gw.key, 'slow');
      const started = Date.now();
      const closing = gw.gateway.close(5000);
      expect(await isRefused(gw.url)).toBe(true);
      expect(gw.gateway.inFlight()).toBe(1);
      const stream = await rest;
      expect(stream.broken).toBe(false);
      expect(stream.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(stream.text.match(/"content":"[^"]/g)!.length).toBeGreaterThanOrEqual(8);
      await closing;
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(gw.slowSim.received).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });

  it('gateway.close(drainMs) cuts a stream still running at the drain deadline', async () => {
    const gw = await startPolicyGateway({ slow: { streamEvents: 20, streamIntervalMs: 100 } });
    try {
      const slow = { ...gw.config.models['sim-openai-chat'], id: 'slow', targets: [{ vendor: 'openai-slow', upstream: 'slow', weight: 1 }] };
      gw.gateway.reload({ ...gw.config, models: { ...gw.config.models, slow } });
      const { rest } = await startSlowStream(gw.url, gw.key, 'slow');
      const started = Date.now();
      await gw.gateway.close(200);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(1000);
      const stream = await rest;
      expect(stream.text).not.toContain('[DONE]');
      expect(gw.slowSim.received).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });

  it('a gateway process drains a stream in flight on SIGTERM, refusing new connections, then exits 0', async () => {
    const slowSim = await startOpenAISimulator({ streamEvents: 10, streamIntervalMs: 80 });
    const config = await writeGatewayConfig((raw) => {
      raw.vendors.openai.base_url = slowSim.url;
    });
    try {
      const gateway = await startCliGateway(config.file, { GATEWAY_API_KEY: SHARED_KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai });
      const { rest } = await startSlowStream(gateway.url, SHARED_KEY, 'gpt-4o-mini');
      const exited = gateway.stop('SIGTERM');
      await waitFor(() => gateway.output().includes('draining 1 request(s)'));
      expect(await isRefused(gateway.url)).toBe(true);
      const stream = await rest;
      expect(stream.broken).toBe(false);
      expect(stream.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(await exited).toBe(0);
      expect(slowSim.received).toHaveLength(1);
    } finally {
      await slowSim.close();
      await config.remove();
    }
  }, 30_000);
});
