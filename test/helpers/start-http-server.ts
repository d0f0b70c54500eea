import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server started by {@link startHttpServer}. */
export interface LocalServer {
  port: number;
  /** Ends its open connections, then stops it. */
  close(): Promise<void>;
}

/** Starts an HTTP server on 127.0.0.1 (a free port) answering with `handler`: a scripted vendor for a test. */
export async function startHttpServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
