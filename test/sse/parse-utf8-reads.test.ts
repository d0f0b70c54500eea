/** Bytes read into text: whatever the reads, the parser sees what one UTF-8 StringDecoder makes of them. */
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createSseParser, type SseEvent } from '../../src/sse/parse.ts';

interface Parsed {
  events: SseEvent[];
  stray: string;
}

/** Parses `pieces` as they are (bytes), or as the text a StringDecoder makes of each (`decoded`). */
function parse(pieces: Buffer[], decoded: boolean): Parsed {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  const decoder = new StringDecoder('utf8');
  for (const piece of pieces) parser.feed(decoded ? decoder.write(piece) : piece);
  if (decoded) parser.feed(decoder.end());
  parser.end();
  return { events, stray: parser.stray };
}

/** `bytes` cut at `cuts` (positions taken modulo its length, in order). */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % (bytes.length + 1))))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

// SSE lines with multi-byte characters, and bytes that are not UTF-8 (cut sequences, stray continuation bytes).
const TEXT = fc.constantFrom('data: ', 'event: x\n', 'data: {"t":"é👋€"}\n\n', '\n', '\r\n', ': c\n', 'é', '👋', 'a');
const BYTES = fc.constantFrom([0xe2], [0xe2, 0x82], [0xf0, 0x9f, 0x91], [0x80], [0xbf, 0x80], [0xff], [0xc3], [0xef, 0xbb, 0xbf]);
const PIECE = fc.oneof(TEXT.map((text) => Buffer.from(text)), BYTES.map((bytes) => Buffer.from(bytes)));

describe('SSE parser reads', () => {
  test('a stream cut anywhere gives the events and stray text of its StringDecoder text (valid or not)', () => {
    fc.assert(fc.property(fc.array(PIECE, { maxLength: 24 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
      const pieces = split(Buffer.concat(parts), cuts);
      expect(parse(pieces, false)).toEqual(parse(pieces, true));
    }), { numRuns: 2000 });
  });

  test('a character cut between reads is read whole, also after reads that ended on a line', () => {
    const bytes = Buffer.from('data: a\n\ndata: é👋\n\n');
    const cut = bytes.indexOf(Buffer.from('👋')) + 2;
    const { events } = parse([bytes.subarray(0, 9), bytes.subarray(9, cut), bytes.subarray(cut)], false);
    expect(events.map((event) => event.data)).toEqual(['a', 'é👋']);
  });
  test('reads of any bytes, ASCII only (copied as latin1) or not, give what the StringDecoder text gives', () => {
    const lines = fc.constantFrom(...[10, 13, 10, 10].map((byte) => [byte]), [...Buffer.from('data: ')], [...Buffer.from('event: e\n')]);
    const ascii = fc.array(fc.integer({ min: 0, max: 0x7f }), { maxLength: 12 });
    const any = fc.array(fc.integer({ min: 0, max: 0xff }), { maxLength: 4 });
    fc.assert(fc.property(fc.array(fc.oneof(lines, ascii, ascii, any), { maxLength: 16 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
      const pieces = split(Buffer.from(parts.flat()), cuts);
      expect(parse(pieces, false)).toEqual(parse(pieces, true));
    }), { numRuns: 2000 });
  });
});
