import { describe, expect, it } from 'vitest';
import { formatRetryAfter, parseRetryAfter, readRetryAfter } from '../../src/routing/retry-after.ts';

const now = Date.UTC(2026, 0, 1);

// Each date below is impossible as written, but Date.UTC rolls it over to a real time whose weekday is the
// one written, so only the check that the date read is the date written can refuse it.
describe('an IMF-fixdate that names no real time is not read, even when its rolled-over weekday matches', () => {
  it('a day past the end of its month (31 Feb 2026 would be Tuesday 3 March)', () => {
    expect(parseRetryAfter('Tue, 31 Feb 2026 08:00:00 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('Tue, 03 Mar 2026 08:00:00 GMT', now)).toBe(86_400_000);
  });

  it('a year below 100 (Date.UTC reads 0050 as 1950, whose 1 January was a Sunday)', () => {
    expect(parseRetryAfter('Sun, 01 Jan 0050 00:00:00 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('Sun, 01 Jan 1950 00:00:00 GMT', now)).toBe(0);
  });

  it('only the whole value: text before or after the date makes it unread', () => {
    const date = 'Thu, 01 Jan 2026 00:00:05 GMT';
    expect(parseRetryAfter(date, now)).toBe(5000);
    expect(parseRetryAfter(`x${date}`, now)).toBeUndefined();
    expect(parseRetryAfter(`${date}x`, now)).toBeUndefined();
    expect(parseRetryAfter(`Thu, ${date}`, now)).toBeUndefined();
  });
});

describe('retry-after alone, with no retry-after-ms', () => {
  it('is read from retry-after (an absent precise value is not read as a number)', () => {
    expect(readRetryAfter({ 'retry-after': '2' }, now)).toBe(2000);
    expect(readRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(readRetryAfter({}, now)).toBeUndefined();
  });
});

describe('the Retry-After a client is given for a vendor answer (formatRetryAfter)', () => {
  it('is whole seconds rounded up of what the vendor asked, and nothing when it sent no retry-after', () => {
    expect(formatRetryAfter({ 'retry-after': '1.5' }, now)).toBe('2');
    expect(formatRetryAfter({ 'retry-after': '7' }, now)).toBe('7');
    expect(formatRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe('5');
    expect(formatRetryAfter({ 'retry-after': '9', 'retry-after-ms': '2500' }, now)).toBe('3');
    expect(formatRetryAfter({ 'retry-after-ms': '2500' }, now)).toBeUndefined();
    expect(formatRetryAfter({}, now)).toBeUndefined();
  });

  it('drops a value it cannot read instead of relaying it', () => {
    expect(formatRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(formatRetryAfter({ 'retry-after': '-3' }, now)).toBeUndefined();
  });
});
