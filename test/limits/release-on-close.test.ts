import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { KeyEntry } from '../../src/config/types.ts';
import type { GatewayError } from '../../src/errors.ts';
import { createLimiter, type Admission } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { releaseOnClose } from '../../src/limits/release-on-close.ts';
import { createLogCapture } from './log-capture.ts';

const { log } = createLogCapture();

function makeKey(name: string, limits: KeyEntry['limits'] = {}): KeyEntry {
  return { name, secret: { env: 'UNUSED' }, models: ['*'], limits, strict: false };
}

describe('releaseOnClose', () => {
  it('frees the concurrency slot at once when the client disconnects', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeKey('g', { concurrency: 1 });
    const admitted: Admission[] = [];
    const responses: ServerResponse[] = [];
    const server = createServer((req, res) => {
      Promise.resolve(limiter.admit(key)).then(async (admission) => (await admission.acquire(), admission)).then(
        (admission) => {
          admitted.push(admission);
          releaseOnClose(admission, res);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: first\n\n');
          responses.push(res);
        },
        (error: GatewayError) => {
          res.writeHead(error.status).end(error.code);
        },
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      const streaming = request({ port, host: '127.0.0.1', path: '/' });
      streaming.end();
      const [response] = (await once(streaming, 'response')) as [IncomingMessage];
      await once(response, 'data');
      expect(await getStatus(port)).toBe(429);
      streaming.destroy();
      await once(responses[0], 'close');
      await sleep(0);
      expect(await getStatus(port)).toBe(200);
    } finally {
      server.closeAllConnections();
      server.close();
    }
    expect(admitted).toHaveLength(2);
  });

});

async function getStatus(port: number): Promise<number> {
  const req = request({ port, host: '127.0.0.1', path: '/' });
  req.end();
  const [response] = (await once(req, 'response')) as [IncomingMessage];
  response.resume();
  if (response.statusCode === 200) req.destroy();
  return response.statusCode!;
}
