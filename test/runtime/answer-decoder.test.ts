import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { openAnswerDecoder, type DecodedSink } from '../../src/runtime/answer-decoder.ts';

const CODERS: Record<string, (bytes: Buffer) => Buffer> = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };

/** A sink that keeps what it is handed; `done` resolves with the decoded bytes or the error. */
function collect(): { sink: DecodedSink; done: Promise<Buffer | GatewayError> } {
  const chunks: Buffer[] = [];
  let settle!: (result: Buffer | GatewayError) => void;
  const done = new Promise<Buffer | GatewayError>((resolve) => (settle = resolve));
  const sink: DecodedSink = {
    onDecoded: (chunk) => (chunks.push(chunk), true),
    onDecodedEnd: () => settle(Buffer.concat(chunks)),
    onDecodeError: settle,
    onDecoderDrain: () => undefined,
  };
  return { sink, done };
}

/** Decodes `coded` (sent in `pieces` reads) through the decoder of `coding`. */
async function decode(coding: string, coded: Buffer, cuts: number[] = []): Promise<Buffer | GatewayError | undefined> {
  const { sink, done } = collect();
  const decoder = openAnswerDecoder('v', coding, sink);
  if (decoder === undefined || decoder instanceof GatewayError) return decoder;
  let from = 0;
  for (const cut of [...cuts.map((c) => Math.floor(c * coded.length)).sort((a, b) => a - b), coded.length]) {
    decoder.write(coded.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  decoder.end();
  return done;
}

describe('openAnswerDecoder', () => {
  it('gives back the bytes of any chain of up to three codings, in any reads, the codings named in the order applied', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 4096 }),
        fc.array(fc.constantFrom('gzip', 'deflate', 'br'), { minLength: 1, maxLength: 3 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
        async (plain, codings, cuts) => {
          const coded = codings.reduce<Buffer>((bytes, name) => CODERS[name](bytes), Buffer.from(plain));
          expect(await decode(codings.join(', '), coded, cuts)).toEqual(Buffer.from(plain));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('reads no coding, `identity` and empty names as no decoder at all', () => {
    const { sink } = collect();
    for (const coding of [undefined, 'identity', 'IDENTITY', ' , identity', []]) expect(openAnswerDecoder('v', coding, sink)).toBeUndefined();
  });

  it('takes names in any case, `x-gzip`, and a header given twice', async () => {
    const coded = zlib.gzipSync(zlib.deflateSync(Buffer.from('plain')));
    const { sink, done } = collect();
    const decoder = openAnswerDecoder('v', ['Deflate', 'X-GZIP'], sink);
    if (decoder === undefined || decoder instanceof GatewayError) throw new Error('no decoder');
    decoder.write(coded);
    decoder.end();
    expect((await done).toString()).toBe('plain');
  });

  it('refuses an unknown coding and a chain of more than three as 502 upstream_invalid_response', () => {
    const { sink } = collect();
    for (const coding of ['x-squash', 'gzip, compress', 'gzip, gzip, gzip, gzip', 'constructor']) {
      const refused = openAnswerDecoder('v', coding, sink);
      expect(refused).toBeInstanceOf(GatewayError);
      expect(refused).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    }
  });

  it('ends an empty coded body as empty, and fails bytes its coding does not decode', async () => {
    expect(await decode('gzip', Buffer.alloc(0))).toEqual(Buffer.alloc(0));
    expect(await decode('gzip', Buffer.from('not gzip'))).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(await decode('br', zlib.brotliCompressSync(Buffer.from('cut short, this one')).subarray(0, 5))).toMatchObject({ status: 502 });
  });

  it('decodes zstd where this Node has it, and refuses it where it has not', async () => {
    const compress = (zlib as { zstdCompressSync?: (bytes: Buffer) => Buffer }).zstdCompressSync;
    if (compress) expect(await decode('zstd', compress(Buffer.from('plain')))).toEqual(Buffer.from('plain'));
    else expect(await decode('zstd', Buffer.from('anything'))).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });
});
