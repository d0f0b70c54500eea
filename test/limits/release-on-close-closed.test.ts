import { once } from 'node:events';
import { createServer, request, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Admission } from '../../src/limits/limiter.ts';
import { releaseOnClose } from '../../src/limits/release-on-close.ts';

describe('releaseOnClose on a response already closed', () => {
  it('releases at once when the response has closed before it is called', async () => {
    let closedResponse: ServerResponse | undefined;
    const server = createServer((_req, res) => {
      res.end('done');
      res.once('close', () => (closedResponse = res));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      const req = request({ port, host: '127.0.0.1', path: '/' });
      req.end();
      const [response] = await once(req, 'response');
      response.resume();
      await once(response, 'end');
      while (!closedResponse) await new Promise((resolve) => setImmediate(resolve));
      let released = 0;
      releaseOnClose({ release: () => released++ } as unknown as Admission, closedResponse);
      expect(released).toBe(1);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
