import { describe, expect, it } from 'vitest';
import { joinStageCosts } from '../../bench/cost-breakdown.ts';
import { formatCostBreakdown } from '../../bench/cost-breakdown-table.ts';

describe('the cost by request stage in RESULTS.md', () => {
  it('joins both sides by stage, the gateway\'s costliest first, a stage one side lacks left absent', () => {
    const floor = new Map([['Node HTTP server, sockets, timers', 40], ['vendor call (undici)', 30]]);
    const gateway = new Map([['vendor call (undici)', 33], ['log line', 9], ['Node HTTP server, sockets, timers', 20]]);
    expect(joinStageCosts(floor, gateway)).toEqual([
      { stage: 'vendor call (undici)', floorUs: 30, gatewayUs: 33 },
      { stage: 'Node HTTP server, sockets, timers', floorUs: 40, gatewayUs: 20 },
      { stage: 'log line', floorUs: undefined, gatewayUs: 9 },
    ]);
  });

  it('prints one row per stage with the difference, "—" where a side has no such stage, and the totals', () => {
    const lines = formatCostBreakdown({
      scenario: 'Chat passthrough, c=64',
      seconds: 10,
      floorUs: 70,
      gatewayUs: 62.5,
      stages: joinStageCosts(new Map([['vendor call (undici)', 30]]), new Map([['vendor call (undici)', 33], ['log line', 9.25]])),
    });
    expect(lines[0]).toBe("## Where the gateway's cost goes");
    expect(lines[2]).toContain('"Chat passthrough, c=64" for 10 s with `--cpu-prof`');
    expect(lines.slice(-4)).toEqual([
      '| --- | ---: | ---: | ---: |',
      '| vendor call (undici) | 30.0 | 33.0 | +3.0 |',
      '| log line | — | 9.3 | +9.3 |',
      '| **total** | **70.0** | **62.5** | **-7.5** |',
    ]);
  });

  it('says n/a, not a number, when the profiled round measured no CPU per request', () => {
    const lines = formatCostBreakdown({ scenario: 'x', seconds: 10, floorUs: Number.NaN, gatewayUs: 50, stages: [{ stage: 'log line', floorUs: Number.NaN, gatewayUs: 5 }] });
    expect(lines.at(-2)).toBe('| log line | n/a | 5.0 | n/a |');
    expect(lines.at(-1)).toBe('| **total** | **n/a** | **50.0** | **n/a** |');
  });
});
