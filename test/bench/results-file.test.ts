import { describe, expect, it } from 'vitest';
import { defineRows } from '../../bench/report.ts';
import { AS_DEPLOYED, QUIET } from '../../bench/deployment.ts';
import { formatResults, PENDING_TARGETS, readCommit, type RunDescription } from '../../bench/results-file.ts';

const RUN: RunDescription = {
  date: new Date('2026-01-02T03:04:05Z'),
  commit: 'abc1234',
  loadTool: 'wrk',
  pinned: true,
  rounds: 5,
  roundS: 10,
  warmupS: 3,
  lengthenings: 2,
  loadAverage: [0.5, 0.75] as [number, number],
  minutes: 12.3,
  deployments: [AS_DEPLOYED],
  headroom: { rows: [], lines: [] },
  spread: ['Spread: every judged row within ±10% between rounds.'],
};

describe('RESULTS.md', () => {
  it('holds the table, the machine, the date, the rerun command, what is not measured yet and the notes', () => {
    const rows = [
      ...defineRows({
        metrics: [{ id: 'rps', label: 'Chat c=64 requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.9 } }],
        baseLabel: 'floor',
        subjectLabel: 'gateway',
        base: [{ rps: 100 }],
        subject: [{ rps: 95 }],
      }),
      ...defineRows({
        metrics: [{ id: 'cpu', label: 'CPU at 10,000 models', unit: 'µs', target: { kind: 'max-ratio', ratio: 1.05 } }],
        baseLabel: 'gateway, 10 models',
        subjectLabel: 'gateway, 10,000 models',
        base: [{ cpu: 100 }],
        subject: [{ cpu: 110 }],
      }),
    ];
    const text = formatResults(rows, RUN, ['a note'], ['Some target: added with its feature.']);
    expect(text).toContain('on 2026-01-02 03:04 UTC (12.3 min)');
    expect(text).toContain('Rerun: `npm run bench`');
    expect(text).toMatch(/Machine: \d+ CPUs .*Node v\d+.*load from wrk, proxy under test pinned to CPU 1/);
    expect(text).toContain('Load average (1 min) at start / end: 0.50 / 0.75.');
    expect(text).toContain('| Chat c=64 requests/s | 100 | 95 | req/s | 0.95x | >= 0.9x | PASS | ±0% / ±0% |');
    expect(text).toContain('except in "CPU at 10,000 models" (gateway, 10 models).');
    expect(text).toContain('1 of 2 targets pass.');
    expect(text).toContain('2 targets pass.\nSpread: every judged row within ±10% between rounds.\n\nNot measured yet:\n- Some target: added with its feature.\n\nNotes:\n- a note\n');
  });

  it('has no "Not measured yet" section once every target of the issue is measured', () => {
    expect(PENDING_TARGETS).toEqual([]);
    const rows = defineRows({ metrics: [{ id: 'rps', label: 'Chat c=64 requests/s', unit: 'req/s' }], baseLabel: 'floor', subjectLabel: 'gateway', base: [{ rps: 1 }], subject: [{ rps: 1 }] });
    const text = formatResults(rows, RUN, []);
    expect(text).not.toContain('Not measured yet');
    expect(text.endsWith('0 of 0 targets pass.\nSpread: every judged row within ±10% between rounds.\n')).toBe(true);
  });

  it('ends with the cost by request stage when the run took a profiled round, after the notes', () => {
    const rows = defineRows({ metrics: [{ id: 'rps', label: 'Chat c=64 requests/s', unit: 'req/s' }], baseLabel: 'floor', subjectLabel: 'gateway', base: [{ rps: 1 }], subject: [{ rps: 1 }] });
    const breakdown = { scenario: 'Chat passthrough, c=64', seconds: 10, floorUs: 80, gatewayUs: 100, profiledFloorUs: 90, profiledGatewayUs: 120, scaledByMeasured: true, stages: [{ stage: 'log line', gatewayUs: 5 }] };
    const text = formatResults(rows, { ...RUN, breakdown }, ['a note']);
    expect(text.indexOf('- a note')).toBeLessThan(text.indexOf("## Where the gateway's cost goes"));
    expect(text.endsWith('| log line | — | 5.0 | +5.0 |\n| **total** | **80.0** | **100.0** | **+20.0** |\n')).toBe(true);
    expect(formatResults(rows, RUN, [])).not.toContain("## Where the gateway's cost goes");
  });

  it('names the passthrough stream as the reference of the translated stream and leaves a floorless row without one', () => {
    const rows = [
      ...defineRows({
        metrics: [{ id: 'rps', label: 'Translated stream c=64, requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.8 } }],
        baseLabel: 'floor, passthrough stream',
        subjectLabel: 'gateway',
        base: [{ rps: 1000 }],
        subject: [{ rps: 650 }],
      }),
      ...defineRows({ metrics: [{ id: 'img', label: 'Images c=16, requests/s', unit: 'req/s', digits: 1 }], subjectLabel: 'gateway', base: [], subject: [{ img: 8 }] }),
    ];
    const text = formatResults(rows, RUN, []);
    expect(text).toContain('| Translated stream c=64, requests/s | 1,000 | 650 | req/s | 0.65x | >= 0.8x | FAIL | ±0% / ±0% |');
    expect(text).toContain('| Images c=16, requests/s | — | 8.0 | req/s | — | (info) |  | ±0% |');
    expect(text).toContain('except in "Translated stream c=64, requests/s" (floor, passthrough stream).');
  });

  it('says which configuration the rows measured: log level and destination, limits, metrics, bundles, vendor, rounds, pinning, date and commit', () => {
    const text = formatResults([], { ...RUN, deployments: [AS_DEPLOYED, QUIET] }, []);
    const configuration = text.slice(text.indexOf('## Configuration'), text.indexOf('## Vendor headroom'));
    expect(configuration).toContain('- **gateway** (every row the targets judge, as deployed): `dist/gateway.mjs` (the `npm run bundle` build) run with plain node;');
    expect(configuration).toContain('request log at info written to a file (stdout redirected, not a TTY); per-key limits on the bench key (rpm 1,000,000,000,');
    expect(configuration).toContain('metrics on (server.admin set: every request recorded in the metrics).');
    expect(configuration).toContain('- **gateway, quiet** (its rows are named so; reference only, no target): the same bundle; request log silent; no limits;');
    expect(configuration).toContain('- **floor**: bench/floor-proxy.ts bundled (`dist/bench-floor-proxy.mjs`), plain node;');
    expect(configuration).toContain('- **vendor**: the static fast vendor (bench/static-vendor.ts, with the tsx loader): canned pre-serialized answers, no simulation work per request');
    expect(configuration).toContain('- **Rounds**: 3 s warm-up per side, then 5 interleaved rounds of 10 s');
    expect(configuration).toContain('measured again, whole, with rounds twice as long (at most 2 time(s)');
    expect(configuration).toContain('proxy under test pinned to CPU 1; vendors, load generator and clients on CPU 0 (taskset).');
    expect(configuration).toContain('- **Run**: 2026-01-02 03:04 UTC, commit abc1234, 12.3 min.');
    expect(text).toContain('(12.3 min), commit abc1234.');
  });

  it('prints the vendor headroom table with its own columns and the REFUSED line, before the results', () => {
    const headroomRows = defineRows({
      metrics: [{ id: 'rps', label: 'Vendor directly vs floor: chat c=64, requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 1.3 } }],
      baseLabel: 'floor',
      subjectLabel: 'vendor, directly',
      base: [{ rps: 10_000 }],
      subject: [{ rps: 12_000 }],
    });
    const text = formatResults([], { ...RUN, headroom: { rows: headroomRows, lines: ['REFUSED: because.'] } }, []);
    const headroom = text.slice(text.indexOf('## Vendor headroom'), text.indexOf('## Results'));
    expect(headroom).toContain('| Metric | Floor | Vendor directly | Unit | Ratio | Needed | Result | Spread (floor / vendor) |');
    expect(headroom).toContain('| Vendor directly vs floor: chat c=64, requests/s | 10,000 | 12,000 | req/s | 1.20x | >= 1.3x | FAIL | ±0% / ±0% |');
    expect(headroom).toContain('- REFUSED: because.');
  });

  it('reads the commit from git, short, marked when the tree has uncommitted changes', () => {
    expect(readCommit()).toMatch(/^[0-9a-f]{7,}( \(uncommitted changes\))?$/);
  });
});
