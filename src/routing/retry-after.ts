const SECONDS = /^\d+(\.\d+)?$/;

/**
 * Milliseconds a `Retry-After` value asks to wait: delay-seconds (`120`, `1.5`) or an HTTP-date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`, counted from `now`; a date in the past means 0). Undefined when the
 * value is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (SECONDS.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait a vendor's response headers ask for, in milliseconds: `retry-after-ms` (OpenAI's precise
 * variant) when present and valid, else `retry-after`.
 */
export function readRetryAfter(
  headers: Record<string, string | string[] | undefined>,
  now: number = Date.now(),
): number | undefined {
  const precise = firstValue(headers['retry-after-ms']);
  if (precise !== undefined && SECONDS.test(precise.trim())) return Number(precise.trim());
  return parseRetryAfter(firstValue(headers['retry-after']), now);
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
