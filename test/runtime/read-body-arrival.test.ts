import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody } from '../../src/runtime/read-body.ts';

/** What the server's listener saw of one request read with readBody. */
interface Read {
  error?: { status: number; code: string };
  raw?: Buffer;
  /** done was called before the listener returned (it must not be). */
  early: boolean;
  calls: number;
  /** Whether the request stream had flowed before `done`: a body taken from the buffer had not. */
  flowed: boolean;
}

const LIMIT = 64;
let server: Server;
let port: number;
const reads: ((read: Read) => void)[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const read: Read = { early: false, calls: 0, flowed: false };
    let returned = false;
    let flowed = false;
    req.on('resume', () => (flowed = true));
    readBody(req, LIMIT, performance.now() + 10_000, (error, raw) => {
      read.calls++;
      read.early ||= !returned;
      read.flowed = flowed;
      if (error) read.error = { status: error.status, code: error.code };
      else read.raw = raw;
      // Waits a moment so that a second call would be counted, then answers.
      setTimeout(() => {
        reads.shift()?.(read);
        res.setHeader('connection', 'close');
        res.end();
      }, 20);
    });
    returned = true;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `head` then each piece of the body, `gapMs` apart, on one connection; resolves with what readBody gave. */
async function send(head: string, pieces: Buffer[], gapMs: number): Promise<Read> {
  const seen = new Promise<Read>((resolve) => reads.push(resolve));
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.resume();
  await new Promise((resolve) => socket.once('connect', resolve));
  if (gapMs === 0) socket.write(Buffer.concat([Buffer.from(head), ...pieces]));
  else {
    socket.write(head);
    for (const piece of pieces) {
      await sleep(gapMs);
      socket.write(piece);
    }
  }
  const read = await seen;
  socket.destroy();
  return read;
}

function withLength(body: Buffer): string {
  return `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
}

function chunked(body: Buffer, cuts: number[]): { head: string; encoded: Buffer } {
  const parts: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts.map((c) => Math.min(c, body.length)).sort((a, b) => a - b), body.length]) {
    if (cut <= at) continue;
    parts.push(Buffer.from(`${(cut - at).toString(16)}\r\n`), body.subarray(at, cut), Buffer.from('\r\n'));
    at = cut;
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return { head: 'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n', encoded: Buffer.concat(parts) };
}

/** `bytes` cut at `cuts` (sorted, deduplicated, inside it). */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let at = 0;
  for (const point of [...points, bytes.length]) {
    if (point > at) pieces.push(bytes.subarray(at, point));
    at = point;
  }
  return pieces.length ? pieces : [bytes];
}

describe('readBody gives the bytes the client sent, however they arrive', () => {
  it('takes a body sent with its headers from the request buffer, without resuming the stream, after the listener returned', async () => {
    const body = Buffer.from('{"model":"m","messages":[]}');
    const read = await send(withLength(body), [body], 0);
    expect(read).toEqual({ raw: body, early: false, calls: 1, flowed: false });
  });

  it('reads a body that arrives after its headers as it streams in', async () => {
    const body = Buffer.from('{"model":"m","messages":[]}');
    const read = await send(withLength(body), [body.subarray(0, 5), body.subarray(5)], 30);
    expect(read).toEqual({ raw: body, early: false, calls: 1, flowed: true });
  });

  it('gives an empty body as empty bytes', async () => {
    const read = await send(withLength(Buffer.alloc(0)), [], 0);
    expect(read.raw).toEqual(Buffer.alloc(0));
    expect(read.calls).toBe(1);
  });

  it('answers 413 for a chunked body over the limit, whole in the buffer or still arriving, and before it when its length says so', async () => {
    const body = Buffer.alloc(LIMIT + 1, 0x20);
    const { head, encoded } = chunked(body, [10, 40]);
    for (const gapMs of [0, 30]) {
      const read = await send(head, gapMs ? split(encoded, [20, 60]) : [encoded], gapMs);
      expect([gapMs, read.error, read.calls, read.early]).toEqual([gapMs, { status: 413, code: 'request_too_large' }, 1, false]);
    }
    const declared = await send(withLength(body), [], 0);
    expect([declared.error, declared.calls, declared.early]).toEqual([{ status: 413, code: 'request_too_large' }, 1, false]);
  });

  it('gives any body within the limit exactly, and 413 for any over it, sent whole or in pieces, by length or chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: LIMIT + 16 }),
        fc.array(fc.nat({ max: 200 }), { maxLength: 4 }),
        fc.boolean(),
        fc.constantFrom(0, 5),
        async (bytes, cuts, isChunked, gapMs) => {
          const body = Buffer.from(bytes);
          const { head, encoded } = isChunked ? chunked(body, cuts) : { head: withLength(body), encoded: body };
          const read = await send(head, gapMs ? split(encoded, cuts) : [encoded], gapMs);
          expect({ calls: read.calls, error: body.length > LIMIT ? undefined : read.error }).toEqual({ calls: 1, error: undefined });
          expect(read.early).toBe(false);
          if (body.length > LIMIT) expect(read.error).toEqual({ status: 413, code: 'request_too_large' });
          else expect(read.raw).toEqual(body);
        },
      ),
      { numRuns: 60, seed: 20261125 },
    );
  }, 60_000);
});
