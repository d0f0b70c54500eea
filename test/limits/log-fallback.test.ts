import { afterAll, describe, expect, it } from 'vitest';
import { getLimitsLogger } from '../../src/limits/log.ts';
import { createLogCapture } from './log-capture.ts';

const before = process.env.LOG_LEVEL;
afterAll(() => {
  if (before === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = before;
});

describe('the limits logger', () => {
  it('without a parent: one default logger at LOG_LEVEL, bound to module limits', () => {
    process.env.LOG_LEVEL = 'warn';
    const log = getLimitsLogger();
    expect(log.level).toBe('warn');
    expect(log.bindings()).toEqual({ module: 'limits' });
    expect(getLimitsLogger()).toBe(log);
  });

  it('with a parent: a child of it, bound to module limits', () => {
    const { log: parent } = createLogCapture();
    const log = getLimitsLogger(parent);
    expect(log).not.toBe(getLimitsLogger());
    expect(log.bindings()).toEqual({ module: 'limits' });
  });
});
