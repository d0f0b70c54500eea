import { randomFillSync } from 'node:crypto';

/** Random bytes drawn from the CSPRNG at once, 16 per id (as Node's own randomUUID keeps a cache). */
const POOL_BYTES = 16 * 256;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** The id's text is written here, then read as one flat string (no string built piece by piece). */
const text = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');
/** Where each of the 16 bytes' two hex digits go in the text (the dashes in between stay). */
const OFFSETS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * A new request id: a random (version 4) UUID in lower-case hex, as `crypto.randomUUID()` gives, made
 * with one flat string instead of the dozen pieces Node's serializer concatenates (one per request).
 */
export function createRequestId(): string {
  if (used === POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  for (let i = 0; i < 16; i++) {
    let byte = pool[used + i];
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    const at = OFFSETS[i];
    text[at] = HEX[byte >> 4];
    text[at + 1] = HEX[byte & 0x0f];
  }
  used += 16;
  return text.toString('latin1');
}
