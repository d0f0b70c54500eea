import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBody } from '../../src/runtime/read-body.ts';

/** A request stream with the given headers (readBody reads only the headers and the stream). */
function makeRequest(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

/**
 * Starts readBody with a deadline `timeoutMs` from now (none when absent), once its first turn is over
 * (it starts reading then); the promise settles with what `done` got, and counts its calls.
 */
async function startReading(req: IncomingMessage, limit: number, timeoutMs?: number) {
  let calls = 0;
  const reading = new Promise<Buffer>((resolve, reject) =>
    readBody(req, limit, timeoutMs === undefined ? 0 : performance.now() + timeoutMs, (error, raw) => {
      calls++;
      if (error) reject(error);
      else resolve(raw!);
    }),
  );
  reading.catch(() => undefined);
  await Promise.resolve();
  return { reading, calls: () => calls };
}

/** Lets a stream deliver what was written (its events come on process.nextTick, which fake timers leave real). */
async function passTicks(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => process.nextTick(resolve));
}

afterEach(() => vi.useRealTimers());

describe('readBody settles once and leaves no deadline behind', () => {
  it('clears its deadline when the body has been read', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const { reading, calls } = await startReading(req, 1024, 60_000);
    expect(vi.getTimerCount()).toBe(1);
    req.end('{"a":1}');
    await expect(reading).resolves.toEqual(Buffer.from('{"a":1}'));
    expect(vi.getTimerCount()).toBe(0);
    expect(calls()).toBe(1);
  });

  it('clears its deadline when the body is too large, and answers 413', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const { reading, calls } = await startReading(req, 4, 60_000);
    req.write('0123456789');
    await expect(reading).rejects.toMatchObject({ status: 413, code: 'request_too_large', message: 'The request body exceeds the limit of 4 bytes.' });
    expect(vi.getTimerCount()).toBe(0);
    req.end('more');
    await passTicks();
    expect(calls()).toBe(1);
  });

  it('rejects 400 body_read_failed with the stream error, and clears its deadline', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const { reading, calls } = await startReading(req, 1024, 60_000);
    req.write('{"a":');
    req.destroy(new Error('socket hang up'));
    await expect(reading).rejects.toMatchObject({ status: 400, code: 'body_read_failed', message: 'Could not read the request body: socket hang up' });
    expect(vi.getTimerCount()).toBe(0);
    expect(calls()).toBe(1);
  });

  it('answers 408 request_timeout when the deadline passes first', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const { reading, calls } = await startReading(req, 1024, 1000);
    req.write('{"a":');
    vi.advanceTimersByTime(1000);
    await expect(reading).rejects.toMatchObject({ status: 408, code: 'request_timeout' });
    // Reading stopped: what arrives later is left unread (to whoever drains the request).
    expect(req.listenerCount('data')).toBe(0);
    req.end('1}');
    await passTicks();
    expect(calls()).toBe(1);
  });

  it('sets no deadline when given none', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const { reading } = await startReading(req, 1024);
    expect(vi.getTimerCount()).toBe(0);
    req.end('{}');
    await expect(reading).resolves.toEqual(Buffer.from('{}'));
  });
});
