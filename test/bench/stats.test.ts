import { describe, expect, it } from 'vitest';
import { getMedian, getPercentile, getSpread } from '../../bench/stats.ts';

describe('bench statistics', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even count', () => {
    expect(getMedian([5, 1, 3])).toBe(3);
    expect(getMedian([4, 1, 3, 2])).toBe(2.5);
    expect(getMedian([])).toBeNaN();
  });

  it('reports spread as half the range over the median', () => {
    expect(getSpread([90, 100, 110])).toBeCloseTo(0.1);
    expect(getSpread([100])).toBe(0);
  });

  it('picks percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(getPercentile(values, 50)).toBe(50);
    expect(getPercentile(values, 99)).toBe(99);
    expect(getPercentile([7], 50)).toBe(7);
  });
});
