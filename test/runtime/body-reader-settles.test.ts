import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBody } from '../../src/runtime/read-body.ts';

/** A request stream with the given headers (readBody reads only the headers and the stream). */
function makeRequest(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

afterEach(() => vi.useRealTimers());

describe('readBody settles once and leaves no deadline behind', () => {
  it('clears its deadline when the body has been read', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const reading = readBody(req, 1024, 60_000);
    expect(vi.getTimerCount()).toBe(1);
    req.end('{"a":1}');
    await expect(reading).resolves.toEqual(Buffer.from('{"a":1}'));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its deadline when the body is too large, and answers 413', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const reading = readBody(req, 4, 60_000);
    req.write('0123456789');
    await expect(reading).rejects.toMatchObject({ status: 413, code: 'request_too_large', message: 'The request body exceeds the limit of 4 bytes.' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects 400 body_read_failed with the stream error, and clears its deadline', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const reading = readBody(req, 1024, 60_000);
    req.write('{"a":');
    req.destroy(new Error('socket hang up'));
    await expect(reading).rejects.toMatchObject({ status: 400, code: 'body_read_failed', message: 'Could not read the request body: socket hang up' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('answers 408 request_timeout when the deadline passes first', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const reading = readBody(req, 1024, 1000);
    req.write('{"a":');
    vi.advanceTimersByTime(1000);
    await expect(reading).rejects.toMatchObject({ status: 408, code: 'request_timeout' });
    // Reading stopped: what arrives later is left unread (to whoever drains the request).
    expect(req.listenerCount('data')).toBe(0);
  });

  it('sets no deadline when given none', async () => {
    vi.useFakeTimers();
    const req = makeRequest();
    const reading = readBody(req, 1024);
    expect(vi.getTimerCount()).toBe(0);
    req.end('{}');
    await expect(reading).resolves.toEqual(Buffer.from('{}'));
  });
});
