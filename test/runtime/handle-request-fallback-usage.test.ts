import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_DISPATCH } from '../../src/gateway/dispatch.ts';
import { createRequestHandler } from '../../src/runtime/handle-request.ts';
import { createServices } from '../../src/runtime/services.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A request whose auxiliary-route fallback throws ends, like every other, in one usage event. */
let gw: TestGateway;
let server: Server;
let url: string;
const events: UsageEvent[] = [];

beforeAll(async () => {
  gw = await startTestGateway();
  const fallback = () => {
    throw new Error('auxiliary route broke');
  };
  const sink = (event: UsageEvent) => {
    events.push(event);
    if (event.path === '/throwing-sink') throw new Error('the sink failed');
  };
  server = createServer(createRequestHandler(() => gw.gateway.getSnapshot(), createServices(gw.config.server), GATEWAY_DISPATCH, sink, fallback));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await gw.close();
});

describe('a synchronous throw of the auxiliary fallback', () => {
  it('is answered 500 and written as a usage event with that status, error and request id', async () => {
    const before = performance.now();
    const response = await fetch(`${url}/v1beta/not-a-route`);
    expect(response.status).toBe(500);
    await response.arrayBuffer();
    await waitFor(() => events.length === 1);
    const elapsed = performance.now() - before;
    expect(events[0]).toMatchObject({ requestId: response.headers.get('x-request-id'), status: 500, error: 'internal_error', method: 'GET', path: '/v1beta/not-a-route' });
    expect(events[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(events[0].durationMs).toBeLessThanOrEqual(elapsed);
  });

  it('survives a sink that throws (a warning, not a crash) and keeps serving', async () => {
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    const response = await fetch(`${url}/throwing-sink`);
    expect(response.status).toBe(500);
    await response.arrayBuffer();
    expect((await warned).message).toBe('the sink failed');
    expect((await fetch(`${url}/again`)).status).toBe(500);
    await waitFor(() => events.length === 3);
  });
});

describe('a synchronous throw of the auxiliary fallback with no usage receiver', () => {
  it('is answered 500 and closes without a warning (there is nobody to hand an event to)', async () => {
    const bare = createServer(createRequestHandler(() => gw.gateway.getSnapshot(), createServices(gw.config.server), GATEWAY_DISPATCH, undefined, () => {
      throw new Error('auxiliary route broke');
    }));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const response = await fetch(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/no-sink`);
      expect(response.status).toBe(500);
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      bare.close();
    }
  });
});
