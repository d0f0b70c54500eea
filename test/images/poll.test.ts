import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { pollWithBackoff } from '../../src/images/poll.ts';

const timeout = () => new GatewayError(504, 'upstream_timeout', 'too slow');

describe('pollWithBackoff', () => {
  it('checks after growing waits until a value comes', async () => {
    const at: number[] = [];
    const start = Date.now();
    const value = await pollWithBackoff(
      async () => {
        at.push(Date.now() - start);
        return at.length === 3 ? 'done' : undefined;
      },
      { firstDelayMs: 10, factor: 2, maxDelayMs: 1000, deadline: Date.now() + 5000, signal: new AbortController().signal },
      timeout,
    );
    expect(value).toBe('done');
    expect(at[2]).toBeGreaterThanOrEqual(10 + 20 + 40 - 5);
  });

  it('throws the timeout error when the deadline comes first', async () => {
    const run = pollWithBackoff(async () => undefined, { firstDelayMs: 5, factor: 1, maxDelayMs: 5, deadline: Date.now() + 30, signal: new AbortController().signal }, timeout);
    await expect(run).rejects.toMatchObject({ status: 504 });
  });

  it('stops with 499 when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const run = pollWithBackoff(async () => undefined, { firstDelayMs: 1000, factor: 1, maxDelayMs: 1000, deadline: Date.now() + 5000, signal: controller.signal }, timeout);
    await expect(run).rejects.toMatchObject({ status: 499 });
  });
});
