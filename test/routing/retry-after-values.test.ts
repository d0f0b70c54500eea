/**
 * Retry-After is vendor input: only delay-seconds and IMF-fixdate (RFC 9110) are read, whatever else a vendor
 * sends (strings `Date.parse` would guess at, negative or huge numbers) is no wait, and every wait read is
 * between 0 and MAX_RETRY_AFTER_MS.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, readRetryAfter } from '../../src/routing/retry-after.ts';

const now = Date.parse('2025-01-01T00:00:00Z');
const settings = { numRuns: 500, seed: 20261124 };

describe('Retry-After values', () => {
  it('any string reads as no wait or a wait between 0 and the maximum', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[ \d.,:A-Za-z+-]{0,40}$/)), (text) => {
      for (const wait of [parseRetryAfter(text, now), readRetryAfter({ 'retry-after-ms': text }, now), readRetryAfter({ 'retry-after': [text, '5'] }, now)]) {
        if (wait !== undefined) expect(wait >= 0 && wait <= MAX_RETRY_AFTER_MS).toBe(true);
      }
    }), settings);
  });

  it('delay-seconds are read as they are, cut to the maximum', () => {
    fc.assert(fc.property(fc.oneof(fc.nat(), fc.bigInt({ min: 0n, max: 10n ** 30n })), (seconds) => {
      expect(parseRetryAfter(String(seconds), now)).toBe(Math.min(MAX_RETRY_AFTER_MS, Number(seconds) * 1000));
    }), settings);
  });

  it('an IMF-fixdate is the time until it (0 when past), cut to the maximum', () => {
    fc.assert(fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
      const time = Math.floor(date.getTime() / 1000) * 1000;
      expect(parseRetryAfter(new Date(time).toUTCString(), now)).toBe(Math.min(MAX_RETRY_AFTER_MS, Math.max(0, time - now)));
    }), settings);
  });

  it.each([
    ['2026', 'delay-seconds, not a year', 2_026_000],
    ['1', 'one second, not 2001', 1000],
    ['99999999999999999999', 'a huge number is cut to a day', MAX_RETRY_AFTER_MS],
  ])('reads %s as %s', (text, _, wait) => {
    expect(parseRetryAfter(text, now)).toBe(wait);
  });

  it.each([
    '-5', '+5', '1e3', 'Infinity', 'NaN', '0x10', '5 s', 'soon',
    '2026-01-01', '2025-01-01T00:00:07Z', 'x 1', 'Jan 1', '1 2',
    'Wednesday, 01-Jan-25 00:00:07 GMT', 'Wed Jan  1 00:00:07 2025', 'Wed, 01 Jan 2025 00:00:07 UTC', 'Wed, 1 Jan 2025 00:00:07 GMT',
    'Thu, 01 Jan 2025 00:00:07 GMT', 'Fri, 31 Feb 2025 00:00:07 GMT', 'Wed, 01 Jan 2025 24:00:07 GMT', 'Mon, 01 Jan 0050 00:00:00 GMT',
  ])('%j is no wait (Date.parse would guess at some of these)', (text) => {
    expect(parseRetryAfter(text, now)).toBeUndefined();
    expect(readRetryAfter({ 'retry-after-ms': text }, now)).toBeUndefined();
  });
});
