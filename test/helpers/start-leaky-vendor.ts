import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the leaky vendor answers: an HTTP 400 or 500 error, or a 200 stream that ends with an error event. */
export type LeakMode = 400 | 500 | 'stream-error';

/** The wire protocols the leaky vendor speaks, chosen by the first path segment. */
export type LeakProtocol = 'openai' | 'anthropic' | 'gemini';

/** One request as the leaky vendor received it. */
export interface LeakRequest {
  protocol: LeakProtocol;
  path: string;
  /** The credential the gateway sent (Bearer token, `x-api-key` or `?key=`), decoded. */
  credential: string;
  stream: boolean;
}

/** A local vendor whose error messages quote the credential it received and any `extra` text. */
export interface LeakyVendor {
  url: string;
  mode: LeakMode;
  /** Appended to every error message (e.g. other secrets the test wants quoted back). */
  extra: string;
  received: LeakRequest[];
  /** Sends the error event of every stream held after its start (each is sent after 2 s anyway). */
  release(): void;
  close(): Promise<void>;
}

/** The message a careless vendor writes: the key as a Bearer header, in a query string (URL-encoded) and as JSON. */
export function writeLeakMessage(credential: string, extra: string): string {
  return `bad request for key Bearer ${credential}; retry at https://vendor.example/v1/x?key=${encodeURIComponent(credential)} ${JSON.stringify({ auth: credential })} ${extra}`;
}

function readCredential(protocol: LeakProtocol, req: IncomingMessage): string {
  if (protocol === 'openai') return String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (protocol === 'anthropic') return String(req.headers['x-api-key'] ?? '');
  return new URL(req.url!, 'http://x').searchParams.get('key') ?? '';
}

function writeErrorBody(protocol: LeakProtocol, status: number, message: string): object {
  if (protocol === 'anthropic') return { type: 'error', error: { type: status === 400 ? 'invalid_request_error' : 'api_error', message } };
  if (protocol === 'gemini') return { error: { code: status, message, status: status === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL' } };
  return { error: { message, type: status === 400 ? 'invalid_request_error' : 'server_error', param: null, code: null } };
}

/** The SSE events of a stream that starts an answer ("Hel", "lo"), then (the last event) fails with `message`. */
function writeErrorStream(protocol: LeakProtocol, message: string): string[] {
  if (protocol === 'anthropic') {
    const start = { type: 'message_start', message: { id: 'msg_leak', type: 'message', role: 'assistant', content: [], model: 'm', stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 0 } } };
    return [
      `event: message_start\ndata: ${JSON.stringify(start)}\n\n`,
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}\n\n',
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message } })}\n\n`,
    ];
  }
  if (protocol === 'gemini') {
    return [
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"index":0}],"modelVersion":"m"}\r\n\r\n',
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"lo"}]},"index":0}],"modelVersion":"m"}\r\n\r\n',
      `data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } })}\r\n\r\n`,
    ];
  }
  return [
    'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}\n\n',
    'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}\n\n',
    `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`,
  ];
}

/**
 * Starts a vendor on 127.0.0.1 speaking the OpenAI (`/openai/v1/chat/completions`), Anthropic
 * (`/anthropic/v1/messages`) and generate-content (`/gemini/v1beta/models/{m}:generateContent` or
 * `:streamGenerateContent?alt=sse`) wire formats, whose every answer is an error quoting its credential.
 */
export async function startLeakyVendor(): Promise<LeakyVendor> {
  const held: (() => void)[] = [];
  const vendor = {
    mode: 400 as LeakMode,
    extra: '',
    received: [] as LeakRequest[],
    release: () => held.splice(0).forEach((send) => send()),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const protocol = req.url!.split('/')[1] as LeakProtocol;
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      const stream = protocol === 'gemini' ? req.url!.includes(':streamGenerateContent') : body.stream === true;
      const credential = readCredential(protocol, req);
      vendor.received.push({ protocol, path: req.url!, credential, stream });
      const message = writeLeakMessage(credential, vendor.extra);
      if (vendor.mode === 'stream-error' && stream) {
        // The answer's start first, the error event once released (when the client has the start).
        const events = writeErrorStream(protocol, message);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(events.slice(0, -1).join(''));
        const send = () => res.writableEnded || res.end(events.at(-1));
        held.push(send);
        setTimeout(send, 2_000).unref();
        return;
      }
      const status = vendor.mode === 'stream-error' ? 500 : vendor.mode;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(writeErrorBody(protocol, status, message)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(vendor, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
