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
  const app = createApp().use(createRouter().get('/files/images/:id', createStoredImageHandler(() => shared)));
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

  it('answers 404 for an unknown id', async () => {
    const response = await request(`${base}/files/images/${'x'.repeat(32)}.png`);
    expect(response.statusCode).toBe(404);
    await response.body.dump();
  });

  it('answers 404 once the image has expired', async () => {
    const id = await shared.put(TINY_PNG);
    clock = Date.now() + 24 * 60 * 60 * 1000 + 1;
    const response = await request(`${base}/files/images/${id}`);
    expect(response.statusCode).toBe(404);
    await response.body.dump();
  });
});
