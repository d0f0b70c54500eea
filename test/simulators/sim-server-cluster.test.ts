import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runAlone } from '../helpers/run-alone.ts';

/** Multi-process test: never beside another heavy test file. */
runAlone();

const SCRIPT = fileURLToPath(new URL('./fixtures/cluster-simulators.ts', import.meta.url));

describe('simulators started in cluster workers (gateway start --workers N --simulate)', () => {
  it("each worker's simulators keep their own port, whatever order the workers start them in", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], { timeout: 60_000 });
    const results = JSON.parse(stdout.trim().split('\n').at(-1)!) as Array<{ order: string; statuses: number[] }>;
    expect(results.map((r) => r.order).sort()).toEqual(['anthropic-first', 'openai-first']);
    // Sharing the primary's handle of each worker's nth listen(0), some calls would reach the other
    // worker's Anthropic simulator and be refused 401.
    for (const { statuses } of results) expect(statuses).toEqual(Array(8).fill(200));
  }, 90_000);
});
