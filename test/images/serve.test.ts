import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, createRouter, toNodeListener } from 'h3';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalImageStore } from '../../src/images/local-store.ts';
import { createStoredImageHandler } from '../../src/images/serve.ts';
import { TINY_PNG } from '../../src/simulators/media.ts';

let server: Server;
let base: string;
let dir: string;
let clock = Date.now();
const store = () => createLocalImageStore(dir, { now: () => clock });
let shared: ReturnType<typeof store>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-serve-'));
  shared = store();
  const files = createStoredImageHandler(() => shared);
  const app = createApp().use(createRouter().use('/files/', files).use('/files/**', files));
  server = createServer(toNodeListener(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('serveStoredImage', () => {
  it('serves a stored image with its media type and the same bytes', async () => {
    const id = await shared.put(TINY_PNG);
    const response = await request(`${base}/files/images/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.from(await response.body.arrayBuffer())).toEqual(TINY_PNG);
  });

  it('answers 404 for an unknown id in the OpenAI error shape with an x-request-id', async () => {
    const response = await request(`${base}/files/images/${'x'.repeat(32)}.png`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.body.json()).toEqual({
      error: { message: 'This image is unknown or has expired.', type: 'invalid_request_error', param: null, code: 'image_not_found' },
    });
  });

  it.each([
    ['GET', '/files/other'],
    ['GET', '/files/images/'],
    ['GET', '/files/images/a/b'],
    ['POST', '/files/images/abc.png'],
    ['DELETE', '/files/'],
  ] as const)('answers %s %s with a 404 route_not_found in the OpenAI error shape', async (method, path) => {
    const response = await request(`${base}${path}`, { method });
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const body: any = await response.body.json();
    expect(body.error).toEqual({ message: `No route for ${method} ${path}.`, type: 'invalid_request_error', param: null, code: 'route_not_found' });
  });

  it('quotes a long path clipped', async () => {
    const response = await request(`${base}/files/${'p'.repeat(5000)}`);
    const body: any = await response.body.json();
    expect(response.statusCode).toBe(404);
    expect(body.error.message.length).toBeLessThan(400);
  });

  it('answers a percent-escape that is not UTF-8 with a 404 (the id is not decoded)', async () => {
    const response = await request(`${base}/files/images/%FF`);
    expect(response.statusCode).toBe(404);
    expect(((await response.body.json()) as any).error.code).toBe('image_not_found');
  });

  it('answers 404 once the image has expired', async () => {
    const id = await shared.put(TINY_PNG);
    clock = Date.now() + 24 * 60 * 60 * 1000 + 1;
    const response = await request(`${base}/files/images/${id}`);
    expect(response.statusCode).toBe(404);
    await response.body.dump();
  });
});
