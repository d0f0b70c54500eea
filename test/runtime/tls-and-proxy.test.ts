import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { compileConfigText } from '../../src/config/index.ts';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-tls-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
const ca = readFileSync(certFile);

const servers: Server[] = [];
const listen = async (server: Server) => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const tunnels: string[] = [];
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  const vendorPort = await listen(
    createHttpsServer({ key: readFileSync(keyFile), cert: ca }, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', choices: [], via: req.headers.authorization }));
    }),
  );
  const proxy = createHttpServer();
  proxy.on('connect', (req, socket, head) => {
    tunnels.push(req.url!);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const proxyPort = await listen(proxy);
  const yaml = `server: { tls: { cert: ${certFile}, key: ${keyFile} } }
keys: [{ name: t, key: env:T_KEY, models: ["*"] }]
vendors:
  direct: { protocol: openai, base_url: "https://127.0.0.1:${vendorPort}/v1", auth: { bearer: env:V_KEY }, ca_file: ${certFile} }
  proxied: { protocol: openai, base_url: "https://127.0.0.1:${vendorPort}/v1", auth: { bearer: env:V_KEY }, ca_file: ${certFile}, proxy: "http://127.0.0.1:${proxyPort}" }
models:
  via-direct: { vendor: direct }
  via-proxy: { vendor: proxied }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
`;
  const { config, problems } = await compileConfigText(yaml);
  expect(problems).toEqual([]);
  gateway = createGateway({ config: config as CompiledConfig, env: { T_KEY: 'sk-t', V_KEY: 'sk-vendor' } });
  url = await gateway.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await gateway.close(0);
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function chat(model: string) {
  const response = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    dispatcher: new Agent({ connect: { ca } }),
    headers: { authorization: 'Bearer sk-t', 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [] }),
  });
  return { status: response.statusCode, body: (await response.body.json()) as any };
}

describe('TLS and outbound proxies', () => {
  it('serves HTTPS with server.tls and trusts a vendor signed by its ca_file', async () => {
    expect(url.startsWith('https://')).toBe(true);
    const { status, body } = await chat('via-direct');
    expect(status).toBe(200);
    expect(body.via).toBe('Bearer sk-vendor');
  });

  it('reaches a vendor through its configured HTTP proxy', async () => {
    tunnels.length = 0;
    const { status, body } = await chat('via-proxy');
    expect(status).toBe(200);
    expect(body.via).toBe('Bearer sk-vendor');
    expect(tunnels).toHaveLength(1);
    expect(tunnels[0]).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
