import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readChunks, type Collected } from '../../src/runtime/collect-chunks.ts';

/** readChunks as a promise (the tests' way to wait for its one callback). */
const collectChunks = (stream: Readable, limit: number) =>
  new Promise<Collected>((resolve, reject) => readChunks(stream, limit, (error, collected) => (collected ? resolve(collected) : reject(error))));

const from = (parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)), { objectMode: false });

describe('collecting a stream up to a limit', () => {
  it('reads everything when the stream ends under the limit', async () => {
    const got = await collectChunks(from(['ab', 'cd']), 10);
    expect(got).toMatchObject({ size: 4, ended: true });
    expect(Buffer.concat(got.chunks).toString()).toBe('abcd');
  });

  it('stops past the limit and leaves the stream paused with the rest unread', async () => {
    const stream = from(['ab', 'cd', 'ef']);
    const got = await collectChunks(stream, 3);
    expect(got).toMatchObject({ size: 4, ended: false });
    expect(stream.isPaused()).toBe(true);
    expect(stream.listenerCount('data')).toBe(0);
  });

  it('reads exactly the first chunk with limit 0', async () => {
    const got = await collectChunks(from(['first', 'second']), 0);
    expect(got.chunks.map(String)).toEqual(['first']);
  });

  it("rejects with the stream's error and detaches", async () => {
    const stream = new Readable({ read() {} });
    const pending = collectChunks(stream, 100);
    stream.destroy(new Error('boom'));
    await expect(pending).rejects.toThrow('boom');
    expect(stream.listenerCount('end')).toBe(0);
  });

  it('keeps listening for errors after stopping at the limit, so a late error cannot crash the process', async () => {
    const stream = new Readable({ read() {} });
    stream.push('abcd');
    const got = await collectChunks(stream, 3);
    expect(got.ended).toBe(false);
    expect(stream.listenerCount('error')).toBe(1);
    stream.destroy(new Error('late'));
    await new Promise((resolve) => stream.once('close', resolve));
    expect(stream.destroyed).toBe(true);
  });
});
