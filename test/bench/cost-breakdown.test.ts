import { describe, expect, it } from 'vitest';
import { findMeasuredCpu, joinStageCosts } from '../../bench/cost-breakdown.ts';
import type { ResultRow } from '../../bench/report.ts';
import type { Scenario } from '../../bench/scenarios/types.ts';
import { formatCostBreakdown } from '../../bench/cost-breakdown-table.ts';
import type { CostBreakdown } from '../../bench/cost-breakdown.ts';

/** A breakdown of chat c=64 over 10 s, scaled by the profiled round itself unless `fields` say otherwise. */
const defineBreakdown = (fields: Partial<CostBreakdown> & Pick<CostBreakdown, 'floorUs' | 'gatewayUs' | 'stages'>): CostBreakdown => ({
  scenario: 'Chat passthrough, c=64',
  seconds: 10,
  profiledFloorUs: fields.floorUs,
  profiledGatewayUs: fields.gatewayUs,
  scaledByMeasured: false,
  ...fields,
});

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
    const lines = formatCostBreakdown(
      defineBreakdown({
        floorUs: 70,
        gatewayUs: 62.5,
        stages: joinStageCosts(new Map([['vendor call (undici)', 30]]), new Map([['vendor call (undici)', 33], ['log line', 9.25]])),
      }),
    );
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
    const lines = formatCostBreakdown(defineBreakdown({ scenario: 'x', floorUs: Number.NaN, gatewayUs: 50, stages: [{ stage: 'log line', floorUs: Number.NaN, gatewayUs: 5 }] }));
    expect(lines.at(-2)).toBe('| log line | n/a | 5.0 | n/a |');
    expect(lines.at(-1)).toBe('| **total** | **n/a** | **50.0** | **n/a** |');
  });

  it('scales by the unprofiled rounds when given, and says what the profiled round itself measured', () => {
    const lines = formatCostBreakdown(
      defineBreakdown({ floorUs: 80, gatewayUs: 117, profiledFloorUs: 103.1, profiledGatewayUs: 289.6, scaledByMeasured: true, stages: [{ stage: 'log line', gatewayUs: 7 }] }),
    );
    expect(lines[2]).toContain('with the CPU per request of the unprofiled rounds in the results table above');
    expect(lines[2]).toContain('the profiled round itself measured 103.1 µs for the floor, 289.6 µs for the gateway');
    expect(lines.at(-1)).toBe('| **total** | **80.0** | **117.0** | **+37.0** |');
  });

  it('finds the scenario\'s CPU per request row of the results table (floor and gateway medians), none without a reference', () => {
    const scenario = { metrics: [{ id: 'chat-c64-rps', label: 'rps', unit: 'req/s' }, { id: 'chat-c64-cpu', label: 'Chat c=64, CPU per request', unit: 'µs' }] } as unknown as Scenario;
    const row = (label: string, base: number | undefined, subject: number): ResultRow => ({ label, unit: 'µs', digits: 0, base, subject, subjectSpread: 0 });
    expect(findMeasuredCpu([row('rps', 1, 2), row('Chat c=64, CPU per request', 80, 117)], scenario)).toEqual({ floorUs: 80, gatewayUs: 117 });
    expect(findMeasuredCpu([row('Chat c=64, CPU per request', undefined, 117)], scenario)).toBeUndefined();
    expect(findMeasuredCpu([], scenario)).toBeUndefined();
  });
});
