import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminListener } from './create-admin-app.ts';
import type { AdminSources } from './types.ts';

/** A running admin listener. */
export interface AdminListener {
  server: Server;
  /** `http://host:port` it listens on. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the admin listener (`server.admin`): a second HTTP server beside the gateway's, serving
 * `/metrics`, `/healthz`, `/readyz` and `/admin/`. Rejects when the port cannot be bound.
 */
export async function startAdminListener(sources: AdminSources, host: string, port: number): Promise<AdminListener> {
  const server = createServer({ requireHostHeader: false }, createAdminListener(sources));
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
