import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_DISPATCH } from '../../src/gateway/dispatch.ts';
import { createRequestHandler, type InFlight, type UsageSink } from '../../src/runtime/handle-request.ts';
import { createServices } from '../../src/runtime/services.ts';
import type { Snapshot, UsageEvent } from '../../src/runtime/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { InFlightList } from '../../src/runtime/in-flight-list.ts';

/**
 * The request listener used directly (createRequestHandler), as an embedder would: its own in-flight
 * counter (or none), its own auxiliary-route fallback and usage receiver, on a real HTTP server whose
 * snapshot and simulated vendors come from a test gateway.
 */
let gw: TestGateway;
const servers: Server[] = [];
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  gw = await startTestGateway();
  process.on('warning', onWarning);
});
afterEach(() => {
  warnings.length = 0;
  for (const server of servers.splice(0)) server.close();
});
afterAll(async () => {
  process.off('warning', onWarning);
  await gw.close();
});

type Listener = ReturnType<typeof createRequestHandler>;

/** Serves `handler` on 127.0.0.1 (with `Response` as its ServerResponse class, when given); its base URL. */
async function serve(handler: Listener, Response?: typeof FailingErrorResponse): Promise<string> {
  const server = Response ? createServer({ ServerResponse: Response as typeof ServerResponse }, handler) : createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A counter of held and released snapshots (what the gateway's snapshot keeper is told). */
function countSnapshots(): InFlight['snapshots'] & { held: number; released: number } {
  const counts = {
    held: 0,
    released: 0,
    hold: (_snapshot: Snapshot) => void counts.held++,
    release: (_snapshot: Snapshot) => void counts.released++,
  };
  return counts;
}

/** A response class whose `writeHead` throws for error statuses (a failure while the answer is written). */
class FailingErrorResponse extends ServerResponse<IncomingMessage> {
  override writeHead(status: number, ...rest: any[]): this {
    if (status >= 400) throw new Error('the answer could not be written');
    return (super.writeHead as any)(status, ...rest);
  }
}

/** Resolves with `closed` when the connection is dropped without an answer, else with the status. */
function fetchOrClosed(url: string, init?: RequestInit): Promise<number | 'closed'> {
  return fetch(url, init).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    () => 'closed' as const,
  );
}

const services = () => createServices(gw.config.server);
const snapshot = () => gw.gateway.getSnapshot();
const AUTH = () => ({ authorization: `Bearer ${gw.key}` });

describe('the request listener without an in-flight counter', () => {
  it('serves a routed request with the default counter', async () => {
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, undefined));
    const response = await fetch(`${url}/v1/models/gpt-4o`, { headers: AUTH() });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).id).toBe('gpt-4o');
  });

  it('answers an unrouted path 404 route_not_found when it has no auxiliary routes', async () => {
    const inFlight: InFlight = { active: 0, contexts: new InFlightList() };
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, undefined, undefined, inFlight));
    const response = await fetch(`${url}/healthz`, { headers: AUTH() });
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.code).toBe('route_not_found');
    await waitFor(() => inFlight.active === 0);
  });
});

describe('the auxiliary-route fallback', () => {
  it('hands it the unrouted paths it claims, counts them in flight and releases them when they close', async () => {
    const snapshots = countSnapshots();
    const inFlight: InFlight = { active: 0, contexts: new InFlightList(), snapshots };
    const seen: string[] = [];
    const fallback = (req: IncomingMessage, res: ServerResponse) => {
      seen.push(req.url!);
      if (req.url !== '/aux') return false;
      // Answered later, as the h3 app of the auxiliary routes does.
      setImmediate(() => res.end('aux answer'));
      return true;
    };
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, undefined, fallback, inFlight));
    const aux = await fetch(`${url}/aux`);
    expect([aux.status, await aux.text()]).toEqual([200, 'aux answer']);
    await waitFor(() => snapshots.released === 1);
    expect({ active: inFlight.active, held: snapshots.held, contexts: inFlight.contexts.size }).toEqual({ active: 0, held: 1, contexts: 0 });
    // A path it does not claim is the route table's 404; a routed path never reaches it.
    const other = await fetch(`${url}/elsewhere`, { headers: AUTH() });
    expect(other.status).toBe(404);
    await other.arrayBuffer();
    const routed = await fetch(`${url}/v1/models`, { headers: AUTH() });
    expect(routed.status).toBe(200);
    await routed.arrayBuffer();
    expect(seen).toEqual(['/aux', '/elsewhere']);
    await waitFor(() => snapshots.released === 3);
    expect(inFlight.active).toBe(0);
  });

  it("answers its synchronous throw 500 in the path's style and releases the request", async () => {
    const snapshots = countSnapshots();
    const inFlight: InFlight = { active: 0, contexts: new InFlightList(), snapshots };
    const fallback = () => {
      throw new Error('auxiliary route broke');
    };
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, undefined, fallback, inFlight));
    const response = await fetch(`${url}/v1beta/not-a-route`);
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ error: { code: 500, message: 'The gateway failed to handle the request.', status: 'INTERNAL' } });
    await waitFor(() => snapshots.released === 1);
    expect({ active: inFlight.active, held: snapshots.held, released: snapshots.released }).toEqual({ active: 0, held: 1, released: 1 });
  });
});

describe('answers that cannot be written', () => {
  it('answers 500 with connection: close when no request context can be made', async () => {
    const url = await serve(
      createRequestHandler(() => {
        throw new Error('snapshot unavailable');
      }, services(), GATEWAY_DISPATCH, undefined),
    );
    const response = await fetch(`${url}/v1/models`);
    expect(response.status).toBe(500);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toMatchObject({ error: { code: 'internal_error', type: 'server_error' } });
  });

  it('drops the connection when that 500 itself cannot be written', async () => {
    const handler = createRequestHandler(() => {
      throw new Error('snapshot unavailable');
    }, services(), GATEWAY_DISPATCH, undefined);
    const url = await serve(handler, FailingErrorResponse);
    expect(await fetchOrClosed(`${url}/v1/models`)).toBe('closed');
  });

  it('drops the connection when an error answer cannot be written, and still releases the request', async () => {
    const inFlight: InFlight = { active: 0, contexts: new InFlightList() };
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, undefined, undefined, inFlight), FailingErrorResponse);
    expect(await fetchOrClosed(`${url}/v1/models`)).toBe('closed');
    await waitFor(() => inFlight.active === 0);
    // A request that is answered normally is written as usual.
    expect(await fetchOrClosed(`${url}/v1/models`, { headers: AUTH() })).toBe(200);
  });
});

describe('the close handler', () => {
  it('logs a served request with its status, no error, and its cost', async () => {
    const events: UsageEvent[] = [];
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, (event) => events.push(event)));
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...AUTH(), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'price me' }] }),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await waitFor(() => events.length === 1);
    expect(events[0]).toMatchObject({ status: 200, model: 'gpt-4o-mini', vendorCalls: 1 });
    expect(events[0].error).toBeUndefined();
    expect(events[0].costUsd).toBeGreaterThan(0);
  });

  it('turns a usage receiver that throws into a process warning and keeps serving', async () => {
    const sink: UsageSink = () => {
      throw new Error('receiver failed in the close handler');
    };
    const inFlight: InFlight = { active: 0, contexts: new InFlightList() };
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, sink, undefined, inFlight));
    for (let i = 0; i < 2; i++) expect(await fetchOrClosed(`${url}/v1/models`, { headers: AUTH() })).toBe(200);
    await waitFor(() => warnings.filter((warning) => warning.message === 'receiver failed in the close handler').length === 2);
  });

  it('closes a request that failed before its admission quietly when nothing receives usage', async () => {
    const inFlight: InFlight = { active: 0, contexts: new InFlightList() };
    const url = await serve(createRequestHandler(snapshot, services(), GATEWAY_DISPATCH, undefined, undefined, inFlight));
    const refused = await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as any).error.code).toBe('invalid_api_key');
    await waitFor(() => inFlight.active === 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });
});
