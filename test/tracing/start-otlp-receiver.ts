import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local OTLP/HTTP receiver (JSON, what the http exporter sends): every span it was sent, with attributes flattened. */
export interface ReceivedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };

function readValue(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(readValue);
  return value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue ?? value.boolValue);
}

function readAttributes(list: { key: string; value: AnyValue }[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, readValue(value)]));
}

/** Starts the receiver on an ephemeral port of 127.0.0.1: the URL to export to, and what it received. */
export async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; paths: string[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ ...span, attributes: readAttributes(span.attributes) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths, server };
}
