/** `String(n)` of 0-999, and the same padded to three digits: the groups whole numbers are written in. */
const DIGITS = Array.from({ length: 1000 }, (_, n) => String(n));
const PADDED = DIGITS.map((digits) => digits.padStart(3, '0'));

/**
 * `.d`, `.dd` or `.ddd` for 0-999 thousandths, trailing zeros dropped (index 0: '' for a whole number):
 * the decimal part of a number with at most three decimals as `String` writes it.
 */
const THOUSANDTHS = PADDED.map((digits, n) => (n === 0 ? '' : `.${digits.replace(/0+$/, '')}`));

/** Whole numbers below this are written in groups of three digits; each group's quotient by 1000 is exact. */
const MAX_WHOLE = 1e15;

/**
 * A whole number from 0 to 10^15 as `String` writes it, from three-digit groups of a table: V8's own conversion
 * stores every new string in its number-string cache (a write barrier's slow path each time), a cost in time
 * well above its instruction count for numbers that change with every request (a count left, a length).
 * Anything else goes to `String`.
 */
export function formatWholeNumber(value: number): string {
  if (!(value >= 0 && value < MAX_WHOLE) || !Number.isInteger(value)) return String(value);
  if (value < 1000) return DIGITS[value];
  let rest = value;
  let text = '';
  // Exact below 10^15: a quotient by 1000 is below 2^40, so its fraction keeps 13 bits and never rounds up.
  while (rest >= 1000) {
    const high = Math.floor(rest / 1000);
    text = PADDED[rest - high * 1000] + text;
    rest = high;
  }
  return DIGITS[rest] + text;
}

/**
 * A number as `JSON.stringify` writes it (`String` of it, `null` when not finite), made without V8's
 * number-to-string conversion for a whole number below 10^15 or one with at most three decimals (a duration
 * in ms rounded to µs): that conversion runs the shortest-digits algorithm for a fraction and stores every new
 * string in V8's number-string cache. Byte for byte `String(value)`: a decimal of at most 15 significant
 * digits is the shortest text that reads back as its double.
 */
export function formatJsonNumber(value: number): string {
  if (Number.isInteger(value) && value >= 0 && value < MAX_WHOLE) return formatWholeNumber(value);
  const thousandths = Math.round(value * 1000);
  if (thousandths >= 0 && thousandths < MAX_WHOLE && thousandths / 1000 === value) {
    const whole = Math.floor(thousandths / 1000);
    return formatWholeNumber(whole) + THOUSANDTHS[thousandths - whole * 1000];
  }
  return Number.isFinite(value) ? String(value) : 'null';
}

/** `ms` rounded to whole microseconds, the precision the request log and metrics report durations in. */
export function roundToMicroseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
