/** The "where the cost goes" section of RESULTS.md, from a {@link CostBreakdown}. */
import type { CostBreakdown } from './cost-breakdown.ts';

const us = (value: number | undefined) => (value === undefined ? '—' : Number.isFinite(value) ? value.toFixed(1) : 'n/a');
const signed = (value: number) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(1)}` : 'n/a');

/** Which CPU per request the stages' shares were multiplied by, and what the profiled round measured. */
function describeScale(breakdown: CostBreakdown): string {
  const profiled = `${us(breakdown.profiledFloorUs)} µs for the floor, ${us(breakdown.profiledGatewayUs)} µs for the gateway`;
  if (!breakdown.scaledByMeasured) return `that round's CPU per request (${profiled}; the results table above comes from the unprofiled rounds)`;
  return `the CPU per request of the unprofiled rounds in the results table above (the profiled round itself measured ${profiled}: a fresh process under the profiler, so only its shares are used)`;
}

/** Markdown lines: what was profiled, then one row per stage and a total. */
export function formatCostBreakdown(breakdown: CostBreakdown): string[] {
  const rows = breakdown.stages.map((s) => `| ${s.stage} | ${us(s.floorUs)} | ${us(s.gatewayUs)} | ${signed((s.gatewayUs ?? 0) - (s.floorUs ?? 0))} |`);
  return [
    '## Where the gateway\'s cost goes',
    '',
    `From a separate profiled round after the measurement: a fresh floor and a fresh gateway (as deployed), each under "${breakdown.scenario}"` +
      ` for ${breakdown.seconds} s with \`--cpu-prof\`, split by request stage (bench/profile-stages.ts, through the bundle's source map) and` +
      ` turned into µs per request with ${describeScale(breakdown)}.` +
      ' "Node HTTP server" is Node\'s own parsing, sockets and timers; the floor writes with `.pipe()` inside Node where the' +
      ' gateway\'s "write answer" is its own code calling Node. CPU per request counts every thread of the process, V8\'s garbage-collector' +
      ' helper threads included, which the profiler does not sample: their time is spread over the stages in proportion.',
    '',
    '| Stage | Floor (µs/request) | Gateway (µs/request) | Gateway - floor |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    `| **total** | **${us(breakdown.floorUs)}** | **${us(breakdown.gatewayUs)}** | **${signed(breakdown.gatewayUs - breakdown.floorUs)}** |`,
  ];
}
