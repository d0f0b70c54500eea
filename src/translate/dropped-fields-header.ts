/**
 * The value of the `x-gateway-dropped-fields` response header: the client's own field names, so every
 * value is a valid and bounded header whatever the names hold.
 *
 * - A name made only of visible ASCII other than `,` and `%` is written as it is; any other name
 *   (non-ASCII such as `温度`, spaces, CR/LF, commas) is percent-encoded as UTF-8 bytes, so
 *   a name can neither break the header nor inject another one.
 * - Each name keeps at most {@link MAX_NAME_CHARS} characters (then `...`), and the list stops before
 *   the value passes {@link MAX_VALUE_CHARS}, ending with `+N more` (N: names left out).
 *
 * Built before the vendor is called: nothing about the header can fail once the vendor has answered.
 */
export const MAX_NAME_CHARS = 128;
export const MAX_VALUE_CHARS = 2048;

const PLAIN_NAME = /^[\x21-\x24\x26-\x2b\x2d-\x7e]+$/;

function formatName(name: string): string {
  const clipped = name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}...` : name;
  return PLAIN_NAME.test(clipped) ? clipped : percentEncode(clipped);
}

/** Percent-encodes the UTF-8 bytes of `text` outside the plain set (lone surrogates too, unlike encodeURIComponent). */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += PLAIN_NAME.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The header value listing `dropped` (empty list: undefined, no header). */
export function formatDroppedFields(dropped: readonly string[]): string | undefined {
  if (dropped.length === 0) return undefined;
  let value = '';
  for (let i = 0; i < dropped.length; i++) {
    const name = formatName(dropped[i]);
    const next = value ? `${value}, ${name}` : name;
    // Room is kept for the "+N more" ending whenever names remain after this one.
    const reserve = i < dropped.length - 1 ? 2 + `+${dropped.length - i - 1} more`.length : 0;
    if (next.length + reserve > MAX_VALUE_CHARS) {
      const more = `+${dropped.length - i} more`;
      return value ? `${value}, ${more}` : more;
    }
    value = next;
  }
  return value;
}
