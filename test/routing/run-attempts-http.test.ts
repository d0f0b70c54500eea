import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoutingPolicy, TargetEntry } from '../../src/config/types.ts';
import { GatewayError, toGatewayError } from '../../src/errors.ts';
import { renderError } from '../../src/protocols/render-error.ts';
import { readRetryAfter } from '../../src/routing/retry-after.ts';
import { runAttempts } from '../../src/routing/run-attempts.ts';
import type { AttemptContext } from '../../src/routing/run-one-attempt.ts';

/** What a simulated vendor does with one request. */
type Fault = 'ok' | '500' | '429' | 'reset-before-headers' | 'reset-mid-stream' | 'stall-body' | 'hang';

interface Vendor {
  origin: string;
  /** Bodies received, and whether each request was closed by the gateway before an answer. */
  received: string[];
  aborted: number;
  server: Server;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** A vendor that answers its n-th request with faults[n] (the last one repeats). */
async function startVendor(name: string, faults: Fault[]): Promise<Vendor> {
  const vendor = { received: [] as string[], aborted: 0 } as Vendor;
  const { server, origin } = await listen(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    vendor.received.push(body);
    res.on('close', () => {
      if (!res.writableFinished) vendor.aborted += 1;
    });
    const fault = faults[Math.min(vendor.received.length - 1, faults.length - 1)];
    if (fault === 'hang') return;
    if (fault === 'reset-before-headers') return req.socket.destroy();
    if (fault === '500') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
    if (fault === '429') return res.writeHead(429, { 'retry-after-ms': '40', 'retry-after': '1' }).end('{"error":"slow down"}');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (fault === 'stall-body') return res.flushHeaders();
    res.write(`data: ${name} first\n\n`);
    await sleep(10);
    if (fault === 'reset-mid-stream') return req.socket.destroy();
    res.end(`data: ${name} last\n\n`);
  });
  return Object.assign(vendor, { server, origin });
}

/** A minimal gateway: one route, `runAttempts` over the vendors, headers sent with the first vendor bytes. */
async function startGateway(vendors: Vendor[], policy: RoutingPolicy): Promise<string> {
  const targets: TargetEntry[] = vendors.map((_, i) => ({ vendor: String(i), upstream: 'm', weight: 1 }));
  const { origin } = await listen(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const client = new AbortController();
    res.on('close', () => client.abort());
    const attempt = async ({ target, signal, commit }: AttemptContext) => {
      const vendor = vendors[Number(target.vendor)];
      const upstream = await request(`${vendor.origin}/v1/chat`, { method: 'POST', body, signal });
      if (upstream.statusCode >= 400) {
        await upstream.body.text();
        const waitMs = readRetryAfter(upstream.headers);
        throw new GatewayError(upstream.statusCode, 'upstream_error', `vendor answered ${upstream.statusCode}`, {
          retryAfter: waitMs === undefined ? undefined : waitMs / 1000,
        });
      }
      const chunks = upstream.body[Symbol.asyncIterator]();
      const first = await chunks.next();
      commit();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!first.done) res.write(first.value);
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) res.write(next.value);
      res.end();
    };
    try {
      await runAttempts({ targets, policy, signal: client.signal, deadline: Date.now() + 2000, attempt });
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      const rendered = renderError('openai', toGatewayError(error), 'req-test');
      res.writeHead(rendered.status, rendered.headers).end(rendered.body);
    }
  });
  return origin;
}

function makePolicy(extra: Partial<RoutingPolicy> = {}): RoutingPolicy {
  return { retries: 0, fallbackOn: ['429', '5xx', 'timeout', 'connect'], attemptTimeoutMs: 300, cooldownAfter: 0, cooldownMs: 0, ...extra };
}

async function callGateway(origin: string): Promise<{ status: number; text: string; error?: Error }> {
  const response = await request(`${origin}/v1/chat/completions`, { method: 'POST', body: '{"model":"smart"}' });
  let text = '';
  try {
    for await (const chunk of response.body) text += chunk;
    return { status: response.statusCode, text };
  } catch (error) {
    return { status: response.statusCode, text, error: error as Error };
  }
}

describe('runAttempts over real HTTP vendors', () => {
  it('falls back when a vendor resets the connection before its headers', async () => {
    const a = await startVendor('a', ['reset-before-headers']);
    const b = await startVendor('b', ['ok']);
    const result = await callGateway(await startGateway([a, b], makePolicy()));
    expect(result).toEqual({ status: 200, text: 'data: b first\n\ndata: b last\n\n' });
    expect(a.received).toEqual(['{"model":"smart"}']);
    expect(b.received).toEqual(['{"model":"smart"}']);
  });

  it('retries a 429 on the same vendor after the wait its Retry-After asks for', async () => {
    const a = await startVendor('a', ['429', 'ok']);
    const b = await startVendor('b', ['ok']);
    const started = Date.now();
    const result = await callGateway(await startGateway([a, b], makePolicy({ retries: 1 })));
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(result).toEqual({ status: 200, text: 'data: a first\n\ndata: a last\n\n' });
    expect(a.received).toHaveLength(2);
    expect(b.received).toHaveLength(0);
  });

  it('abandons a hanging vendor after the attempt timeout and aborts its request', async () => {
    const a = await startVendor('a', ['hang']);
    const b = await startVendor('b', ['ok']);
    const result = await callGateway(await startGateway([a, b], makePolicy({ attemptTimeoutMs: 80 })));
    expect(result.text).toBe('data: b first\n\ndata: b last\n\n');
    await sleep(20);
    expect(a.aborted).toBe(1);
    expect(b.received).toHaveLength(1);
  });

  it('falls back when a vendor sends headers but no first byte in time (the client saw nothing yet)', async () => {
    const a = await startVendor('a', ['stall-body']);
    const b = await startVendor('b', ['ok']);
    const result = await callGateway(await startGateway([a, b], makePolicy({ attemptTimeoutMs: 80 })));
    expect(result).toEqual({ status: 200, text: 'data: b first\n\ndata: b last\n\n' });
    expect(a.received).toHaveLength(1);
  });

  it('makes no second attempt after the first bytes reached the client', async () => {
    const a = await startVendor('a', ['reset-mid-stream']);
    const b = await startVendor('b', ['ok']);
    const result = await callGateway(await startGateway([a, b], makePolicy({ retries: 2 })));
    expect(result.status).toBe(200);
    expect(result.text).toBe('data: a first\n\n');
    expect(result.error).toBeDefined();
    expect(a.received).toHaveLength(1);
    expect(b.received).toHaveLength(0);
  });

  it('answers the last vendor error in the caller style when every target failed', async () => {
    const a = await startVendor('a', ['500']);
    const b = await startVendor('b', ['500']);
    const result = await callGateway(await startGateway([a, b], makePolicy()));
    expect(result.status).toBe(500);
    expect(JSON.parse(result.text).error).toMatchObject({ code: 'upstream_error', message: 'vendor answered 500' });
    expect([a.received.length, b.received.length]).toEqual([1, 1]);
  });
});
