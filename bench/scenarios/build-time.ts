/**
 * `npm run build` wall time for the 10,000-model config (1,000 in quick mode): `tsx scripts/build.ts
 * CONFIG OUT` into a temporary directory, timed from spawn to exit (tsx start-up included, as users see it).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runChild } from '../run-child.ts';
import type { Measured, Scenario } from './types.ts';

/** The build of 10,000 models must take under 3 s. */
export const buildTimeScenario: Scenario = {
  id: 'build-time',
  title: 'npm run build, wall time',
  mustSucceed: true,
  metrics: [{ id: 'build-ms', label: 'npm run build, {large} models, wall time', unit: 'ms', target: { kind: 'max-value', value: 3000, unit: 'ms' } }],
  rounds: (ctx) => (ctx.quick ? 1 : ctx.rounds),
  async start(ctx) {
    return { subject: { label: 'build', kind: 'gateway', pid: 0, origin: '' } };
  },
  async measure(ctx): Promise<Measured> {
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    const files = ctx.configs.get(ctx.largeCount)!;
    const started = performance.now();
    await runChild(process.execPath, [tsx, 'scripts/build.ts', files.configFile, join(ctx.tmpDir, 'generated')], ctx.cpu.proxy);
    return { 'build-ms': performance.now() - started };
  },
};
