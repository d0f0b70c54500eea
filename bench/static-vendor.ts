/**
 * The static fast vendor the proxies are measured against: node:http answering canned, pre-serialized
 * bodies (bench/static-answers.ts) with no simulation work per request, so the vendor is never what
 * limits a proxy's rate. It reads the request body only to look for `"stream":true` and
 * `"include_usage":true` (two byte searches) and checks the vendor key (one string compare).
 *
 *   POST /v1/chat/completions       OpenAI chat: JSON, or the SSE stream (with the usage chunk when asked)
 *   POST /v1/messages               Anthropic messages (key in `x-api-key`): JSON, or the SSE stream
 *   POST /v1/audio/transcriptions   a transcription (the upload is drained, not kept)
 *   GET  /healthz                   200
 *
 * Usage: `node --import tsx bench/static-vendor.ts --key K`. Prints one JSON line
 * `{"url":"http://127.0.0.1:P/v1","origin":"http://127.0.0.1:P"}` once listening; stops on SIGTERM or SIGINT.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { defineStaticAnswers, type StaticAnswers } from './static-answers.ts';

/** Options of {@link createStaticVendorListener}. */
export interface StaticVendorOptions {
  /** The vendor key: `Authorization: Bearer <key>` (OpenAI paths) or `x-api-key: <key>` (/v1/messages). */
  key: string;
  answers?: StaticAnswers;
  /** Sees every request with its body (tests record with it; the bench passes none). */
  onRequest?: (req: IncomingMessage, body: Buffer) => void;
}

const STREAM = Buffer.from('"stream":true');
const INCLUDE_USAGE = Buffer.from('"include_usage":true');
const JSON_TYPE = 'application/json';
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
const UNAUTHORIZED = Buffer.from('{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}');
const NOT_FOUND = Buffer.from('{"error":{"message":"Unknown path.","type":"invalid_request_error","code":"not_found"}}');

function sendJson(res: ServerResponse, status: number, body: Buffer): void {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': String(body.length) });
  res.end(body);
}

/** A stream goes out as one chunk of a chunked response, as the simulators send an unpaced stream. */
function sendStream(res: ServerResponse, body: Buffer): void {
  res.writeHead(200, SSE_HEADERS);
  res.end(body);
}

function readBody(req: IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

/** Creates the static vendor's request listener. */
export function createStaticVendorListener(options: StaticVendorOptions) {
  const answers = options.answers ?? defineStaticAnswers();
  const bearer = `Bearer ${options.key}`;
  const observe = options.onRequest;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url;
    if (req.method === 'GET' && url === '/healthz') return sendJson(res, 200, Buffer.from('{"ok":true}'));
    const messages = url === '/v1/messages';
    if (req.method !== 'POST' || (!messages && url !== '/v1/chat/completions' && url !== '/v1/audio/transcriptions')) {
      req.resume();
      return sendJson(res, 404, NOT_FOUND);
    }
    const authorized = messages ? req.headers['x-api-key'] === options.key : req.headers.authorization === bearer;
    if (url === '/v1/audio/transcriptions') {
      // An upload is drained, not kept: its bytes are never looked at.
      req.resume();
      return void req.on('end', () => {
        observe?.(req, Buffer.alloc(0));
        sendJson(res, authorized ? 200 : 401, authorized ? answers.transcription : UNAUTHORIZED);
      });
    }
    readBody(req, (body) => {
      observe?.(req, body);
      if (!authorized) return sendJson(res, 401, UNAUTHORIZED);
      const stream = body.includes(STREAM);
      if (messages) return stream ? sendStream(res, answers.messageStream) : sendJson(res, 200, answers.message);
      if (!stream) return sendJson(res, 200, answers.chat);
      sendStream(res, body.includes(INCLUDE_USAGE) ? answers.chatStreamWithUsage : answers.chatStream);
    });
  };
}

/** Starts the static vendor on 127.0.0.1 and prints its URLs. */
async function startStaticVendor(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { key: { type: 'string' }, port: { type: 'string' } } });
  if (!values.key) throw new Error('usage: static-vendor.ts --key K [--port N]');
  const server = createServer(createStaticVendorListener({ key: values.key }));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(Number(values.port ?? 0), '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = (): void => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`${JSON.stringify({ url: `${origin}/v1`, origin })}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startStaticVendor(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
