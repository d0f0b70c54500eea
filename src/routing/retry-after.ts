/** delay-seconds (RFC 9110: digits; a fraction, as some vendors send, is read too). */
const SECONDS = /^\d+(\.\d+)?$/;
/** IMF-fixdate (RFC 9110 section 5.6.7), the only HTTP-date form read: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
/** The longest wait a vendor may ask for (a day, like a daily quota's reset); longer asks are cut to it. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * Milliseconds a `Retry-After` value asks to wait: delay-seconds (`120`, `1.5`) or an IMF-fixdate
 * (`Wed, 21 Oct 2015 07:28:00 GMT`, counted from `now`; a date in the past means 0), at most
 * {@link MAX_RETRY_AFTER_MS}. Undefined when the value is absent or anything else (other date forms,
 * negative numbers, words: what `Date.parse` would guess at is not guessed).
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (SECONDS.test(text)) return clamp(Number(text) * 1000);
  const date = readImfFixdate(text);
  return date === undefined ? undefined : clamp(date - now);
}

/**
 * The wait a vendor's response headers ask for, in milliseconds: `retry-after-ms` (OpenAI's precise
 * variant) when present and valid, else `retry-after`; at most {@link MAX_RETRY_AFTER_MS}.
 */
export function readRetryAfter(
  headers: Record<string, string | string[] | undefined>,
  now: number = Date.now(),
): number | undefined {
  const precise = firstValue(headers['retry-after-ms'])?.trim();
  if (precise !== undefined && SECONDS.test(precise)) return clamp(Number(precise));
  return parseRetryAfter(firstValue(headers['retry-after']), now);
}

/**
 * The `Retry-After` a client gets for a vendor's headers: whole delay-seconds, rounded up, of the wait
 * {@link readRetryAfter} reads (the rule the rendered errors follow); undefined when the vendor sent no
 * `retry-after` or one that is not read (garbage is dropped, never relayed).
 */
export function formatRetryAfter(headers: Record<string, string | string[] | undefined>, now?: number): string | undefined {
  if (headers['retry-after'] === undefined) return undefined;
  // The clock is read only for a header that is there: most answers have none.
  const waitMs = readRetryAfter(headers, now ?? Date.now());
  return waitMs === undefined ? undefined : String(Math.ceil(waitMs / 1000));
}

function clamp(ms: number): number {
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/** Epoch milliseconds of an IMF-fixdate, or undefined when the text is none or names no real time and weekday. */
function readImfFixdate(text: string): number | undefined {
  const match = IMF_FIXDATE.exec(text);
  if (!match) return undefined;
  const [, weekday, day, month, year, hour, minute, second] = match;
  const time = Date.UTC(Number(year), MONTHS.indexOf(month), Number(day), Number(hour), Number(minute), Number(second));
  const date = new Date(time);
  const exact = date.getUTCFullYear() === Number(year) && date.getUTCDate() === Number(day) && date.getUTCHours() === Number(hour) && date.getUTCMinutes() === Number(minute) && date.getUTCSeconds() === Number(second);
  return exact && DAYS[date.getUTCDay()] === weekday ? time : undefined;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
