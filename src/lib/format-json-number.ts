/**
 * `.d`, `.dd` or `.ddd` for 0-999 thousandths, trailing zeros dropped (index 0: '' for a whole number):
 * the decimal part of a number with at most three decimals as `String` writes it.
 */
const THOUSANDTHS = Array.from({ length: 1000 }, (_, n) => (n === 0 ? '' : `.${String(n).padStart(3, '0').replace(/0+$/, '')}`));

/** Above this many thousandths a number may have more than 15 significant digits: left to `String`. */
const MAX_THOUSANDTHS = 1e15;

/**
 * A number as `JSON.stringify` writes it (`String` of it, `null` when not finite), made without V8's
 * number-to-string conversion for one with at most three decimals (a duration in ms rounded to µs, a count):
 * that conversion runs the shortest-digits algorithm and stores every new string in V8's number-string cache,
 * a cost in time per request well above its instruction count. A whole part is a small integer, whose string
 * the cache already holds. Any other number goes to `String`. Byte for byte `String(value)`: a decimal of at
 * most 15 significant digits is the shortest text that reads back as its double.
 */
export function formatJsonNumber(value: number): string {
  const thousandths = Math.round(value * 1000);
  if (thousandths >= 0 && thousandths < MAX_THOUSANDTHS && thousandths / 1000 === value) {
    const whole = Math.floor(thousandths / 1000);
    return String(whole) + THOUSANDTHS[thousandths - whole * 1000];
  }
  return Number.isFinite(value) ? String(value) : 'null';
}

/** `ms` rounded to whole microseconds, the precision the request log and metrics report durations in. */
export function roundToMicroseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
