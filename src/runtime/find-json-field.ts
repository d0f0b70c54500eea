const QUOTE = 0x22;

/**
 * Letters so frequent in JSON text that a search whose needle starts with one stops at nearly every few
 * bytes (Buffer#indexOf scans for the needle's first byte, then compares): the quote, then e, t, a, o, i, n, s.
 */
const FREQUENT = new Set([QUOTE, ...Buffer.from('etaoins')]);

/** A needle is at least this long (with its closing quote), so a short suffix does not match everywhere. */
const MIN_NEEDLE = 5;

/** A JSON field name as searched for: the quoted name, and the part of it that is searched. */
export interface FieldMarker {
  /** The quoted name, `"name"`. */
  readonly quoted: Buffer;
  /** The tail of `quoted` searched for (from its first infrequent byte, always with the closing quote). */
  readonly needle: Buffer;
  /** Where `needle` starts in `quoted`. */
  readonly skip: number;
}

/**
 * Makes the marker of a field name for {@link findField}: searching `"usage"` in an event stream costs
 * 3-6x searching `usage"` (quotes are every few bytes), so the search starts past the quote and any
 * frequent leading letters, which are compared where the needle is found.
 */
export function defineFieldMarker(name: string): FieldMarker {
  const quoted = Buffer.from(`"${name}"`);
  let skip = 0;
  while (FREQUENT.has(quoted[skip]) && quoted.length - skip > MIN_NEEDLE) skip++;
  return { quoted, needle: quoted.subarray(skip), skip };
}

/**
 * Index of the first `"name"` of `marker` that starts at or after `from` and ends by `end`, or -1: the
 * same answer as `bytes.indexOf(marker.quoted, from)`, found faster.
 */
export function findField(bytes: Buffer, marker: FieldMarker, from = 0, end = bytes.length): number {
  const { quoted, needle, skip } = marker;
  for (let at = bytes.indexOf(needle, from + skip) - skip; at >= -skip && at + quoted.length <= end; at = bytes.indexOf(needle, at + skip + 1) - skip) {
    if (at >= from && startsWith(bytes, at, quoted, skip)) return at;
  }
  return -1;
}

/** Index of the last `"name"` of `marker` in `bytes`, or -1: the same as `bytes.lastIndexOf(marker.quoted)`. */
export function findLastField(bytes: Buffer, marker: FieldMarker): number {
  const { needle, skip } = marker;
  for (let at = bytes.lastIndexOf(needle) - skip; at >= -skip; at = at + skip > 0 ? bytes.lastIndexOf(needle, at + skip - 1) - skip : -1 - skip) {
    if (at >= 0 && startsWith(bytes, at, marker.quoted, skip)) return at;
  }
  return -1;
}

/** True when the `count` bytes of `bytes` at `at` are the first `count` of `prefix` (a byte loop: a call of Buffer#compare costs more). */
function startsWith(bytes: Buffer, at: number, prefix: Buffer, count: number): boolean {
  for (let i = 0; i < count; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}
