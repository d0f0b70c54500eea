import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A vendor that reads each request and never answers; it records when the gateway closes the request. */
let vendor: Server;
const seen: { url: string; body: string; closed: boolean }[] = [];
let gw: TestGateway;

function hold(req: IncomingMessage, res: ServerResponse) {
  const record = { url: req.url!, body: '', closed: false };
  seen.push(record);
  req.on('data', (chunk) => (record.body += chunk));
  res.on('close', () => (record.closed = true));
}

beforeAll(async () => {
  vendor = createServer(hold);
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  const port = (vendor.address() as AddressInfo).port;
  // No default limits (gateway.yaml gives every key a token limit): the estimate is then made for the usage
  // receiver alone, not because a limit charges it.
  gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, defaultLimits: {} } }));
  // After the start: the simulators point every configured vendor at themselves.
  const config: CompiledConfig = gw.gateway.getSnapshot().config;
  gw.gateway.reload({
    ...config,
    vendors: { ...config.vendors, silent: { ...config.vendors.openai, name: 'silent', baseUrl: `http://127.0.0.1:${port}/v1`, timeouts: { headersMs: 60_000, bodyMs: 60_000 } } },
    models: { ...config.models, silent: { ...config.models['sim-openai-chat'], id: 'silent', targets: [{ vendor: 'silent', upstream: 'quiet-model', weight: 1 }] } },
  });
});
afterAll(async () => {
  await gw.close();
  vendor.closeAllConnections();
  await new Promise((resolve) => vendor.close(resolve));
});

describe('a client that leaves before its answer', () => {
  it('is logged 499 client_closed_request and its vendor call is aborted', async () => {
    const event = gw.nextEvent();
    const controller = new AbortController();
    const answer = fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'silent', messages: [{ role: 'user', content: 'wait for me' }] }),
      signal: controller.signal,
    });
    await waitFor(() => seen.length === 1 && seen[0].body.length > 0);
    expect(JSON.parse(seen[0].body)).toMatchObject({ model: 'quiet-model', messages: [{ role: 'user', content: 'wait for me' }] });
    expect(seen[0].closed).toBe(false);
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    const usage = await event;
    expect(usage).toMatchObject({ status: 499, error: 'client_closed_request', model: 'silent', vendorCalls: 1 });
    // The vendor reported nothing: the tokens it was sent are estimated from the request.
    expect(usage.usage).toMatchObject({ estimated: true, outputTokens: 0 });
    expect(usage.usage.inputTokens).toBeGreaterThan(0);
    // The vendor would hold the request for a minute: only the gateway's abort closes it.
    await waitFor(() => seen[0].closed);
    expect(gw.gateway.inFlight()).toBe(0);
  });
});
