import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the vendor received and answered, credentials removed. */
export interface VendorExchange {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string };
}

/** Headers that carry a credential, in any vendor protocol: never shown. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'proxy-authorization', 'cookie', 'set-cookie']);
/** Query parameters that carry a credential (Google's `key`). */
const CREDENTIAL_PARAMS = ['key', 'api_key', 'access_token'];
/** Most of a body kept for the page. */
const MAX_BODY = 64 * 1024;

function showHeaders(headers: Record<string, string | string[] | undefined> | Headers): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return Object.fromEntries(entries.filter(([name, value]) => value !== undefined && !CREDENTIAL_HEADERS.has(name.toLowerCase())).map(([name, value]) => [name, String(value)]));
}

function showUrl(url: URL): string {
  const shown = new URL(url);
  for (const name of CREDENTIAL_PARAMS) if (shown.searchParams.has(name)) shown.searchParams.set(name, '(removed)');
  return shown.toString();
}

/**
 * A forward proxy on 127.0.0.1 the playground's gateway calls instead of each vendor: `/<vendor>/<path>` is
 * sent on to that vendor's base URL as it came, and the exchange is recorded with every credential removed.
 */
export async function startRecordingProxy(baseUrls: Record<string, string>) {
  const exchanges: VendorExchange[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [, vendor, ...rest] = (req.url ?? '/').split('/');
    const base = baseUrls[decodeURIComponent(vendor)];
    if (!base) {
      res.writeHead(502).end();
      return;
    }
    const target = new URL(`${base}/${rest.join('/')}`);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))) as Record<string, string>;
    try {
      const answer = await fetch(target, { method: req.method, headers, body: body.length ? body : undefined });
      const text = await answer.text();
      exchanges.push({
        request: { method: req.method ?? 'GET', url: showUrl(target), headers: showHeaders(req.headers), body: body.toString('utf8').slice(0, MAX_BODY) },
        response: { status: answer.status, headers: showHeaders(answer.headers), body: text.slice(0, MAX_BODY) },
      });
      const passed = Object.fromEntries([...answer.headers.entries()].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)));
      res.writeHead(answer.status, passed).end(text);
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
